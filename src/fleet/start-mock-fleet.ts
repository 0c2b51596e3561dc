import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import type { DevicePort } from '../device/device-port.js'
import type { Device, DeviceSchedule } from '../device/device.js'
import { Roster, type RosterEntry } from '../device/roster.js'
import type { HandleClock } from '../device/handle-clock.js'
import { serveDevices, type DeviceToServe } from '../start/serve-devices.js'
import { fleetJournal, type FleetJournalEntry } from '../admin-api/fleet-routes.js'
import { DataStore, prepareServedData, type ServedData } from '../data/data-store.js'
import { datasetFromData } from '../data/dataset.js'
import { BUNDLED_FIXTURES, loadFixtures } from '../data/fixtures.js'
import { generateCameras } from '../data/generate.js'
import { loadTls } from '../config/tls.js'
import { resolveOptions } from '../config/options.js'
import { createLogger, deviceLogger, logsWritten } from '../logging/logger.js'
import type { MockNvr } from '../start/start-mock-nvr.js'
import { describeControlListenError } from '../start/listen-error.js'
import { controlPortOf, planDevices, type DevicePlan, type FleetOptions } from './fleet-options.js'
import { writeManifest } from './manifest.js'
import { listenDevices } from './free-ports.js'
import { loadDeviceSchedule } from '../start/device-schedule.js'
import { FleetSummary } from './fleet-summary.js'

/** A running fleet: its control address, its devices, and verbs on all of them at once. */
export interface MockFleet {
  /** The admin API and dashboard of every device, e.g. http://127.0.0.1:8079 (with an admin token). */
  controlUrl: string
  /** Each device's handle, in order: its url, port and the verbs of startMockNvr's handle; its close() closes its port alone. */
  devices: MockNvr[]
  /** The device of this name, or undefined. */
  device: (name: string) => MockNvr | undefined
  /** Every device's journal as one, in the order the answers ended (then by the device's place), each entry with its device's name. */
  requests: () => FleetJournalEntry[]
  /** Every device back to its start: its start-up data, no faults, an empty journal, its health from its start; resolves once every port is back. */
  reset: () => Promise<void>
  /** The one Fastify instance that serves every device. */
  app: FastifyInstance
  /** Stops every device and the control address; requests in flight finish first. */
  close: () => Promise<void>
  /** The one clock of every device: with `clock: 'manual'`, advance(ms) walks them all. */
  clock: HandleClock
}

/**
 * Starts a fleet from one process: one app, one listener and one state per device. Devices that share
 * fixtures share their prepared bytes; generated data is each device's own, from a seed derived from the
 * fleet's seed and the device's name. The control address serves the fleet's admin API and dashboard.
 */
export async function startMockFleet (input: FleetOptions): Promise<MockFleet> {
  const plans = planDevices(input)
  const controlPort = controlPortOf(input, plans)
  const shared = resolveOptions({ ...plans[0]?.options, data: input.data })
  const tls = await loadTls(shared)
  const logger = input.logger ?? createLogger(shared)
  const toServe = await devicesToServe(plans, input.data, logger)
  const served = await serveDevices({ devices: toServe, shared, logger, tls, control: { port: controlPort }, watch: input.watch === true })
  const { app, roster } = served
  let controlUrl = ''
  await served.listen({
    devices: async (devices, ports) => { await listenAll(devices, ports, plans, shared.host) },
    onControl: url => {
      controlUrl = url
      input.onControlListening?.(url)
    },
    controlError: error => describeControlListenError(error, shared.host, controlPort)
  })
  try {
    if (input.manifest !== undefined) await writeFleetManifest(input.manifest, roster, toServe)
    logStart(app, plans, controlUrl, shared.adminToken !== undefined)
    await logsWritten(logger)
  } catch (error) {
    // Never half started: whatever listens is closed.
    await served.close()
    throw error
  }
  // A line a second with the fleet's counts, in place of a line per request (those are written at debug).
  const devices = roster.entries.map(entry => entry.device)
  const summary = new FleetSummary(devices, (devices[0] as Device).clock, app.log)
  summary.start()
  const close = async (): Promise<void> => {
    summary.stop()
    await served.close()
  }
  // A handle is some two kilobytes of verbs a device: made when first asked for, so a fleet nobody asks holds none.
  let handles: MockNvr[] | undefined
  let byName: Map<string, MockNvr> | undefined
  const handlesOf = (): MockNvr[] => {
    handles ??= roster.entries.map(entry => ({ ...deviceHandle(app, entry, tls?.cert), clock: served.clock }))
    return handles
  }
  return {
    controlUrl,
    get devices () {
      return handlesOf()
    },
    device: name => (byName ??= new Map(handlesOf().map((handle, index) => [(plans[index] as DevicePlan).name, handle]))).get(name),
    requests: () => fleetJournal(roster),
    reset: async () => await roster.reset(),
    app,
    close,
    clock: served.clock
  }
}

/** Each plan's device to serve: its store and schedule, a logger that names it, and the fixtures it watches. */
async function devicesToServe (plans: readonly DevicePlan[], data: unknown, logger: FastifyBaseLogger): Promise<DeviceToServe[]> {
  const stores = await loadStores(plans, data)
  const schedules = await Promise.all(plans.map(async plan => await loadDeviceSchedule(plan.options)))
  return plans.map(({ name, options, dataKey }, index) => ({
    name,
    options,
    store: stores.get(name) as DataStore,
    schedule: schedules[index] as DeviceSchedule,
    // Every line about one device names it.
    log: deviceLogger(logger, name),
    // Generated and in-memory data have no file to watch.
    ...(dataKey === 'bundled' || dataKey.startsWith('fixtures:') ? { fixtures: options.fixtures ?? BUNDLED_FIXTURES } : {})
  }))
}

// Each device as the manifest lists it; a device with a schedule has its timeline there, one always online needs none.
async function writeFleetManifest (path: string, roster: Roster, devices: readonly DeviceToServe[]): Promise<void> {
  await writeManifest(path, roster.entries.map((entry, index) => {
    const listed = { name: entry.device.name, url: entry.url, cameras: entry.device.cameraIds() }
    if ((devices[index] as DeviceToServe).schedule.plan === undefined) return listed
    const { state, next } = entry.device.verbs().health()
    return { ...listed, health: { state, next } }
  }))
}

/** Each device's store: one prepared copy per fixture path (or in-memory data), generated data each device's own. */
async function loadStores (plans: readonly DevicePlan[], data: unknown): Promise<Map<string, DataStore>> {
  const prepared = new Map<string, ServedData>()
  const stores = new Map<string, DataStore>()
  for (const { name, options, dataKey } of plans) {
    if (options.generate !== undefined) {
      stores.set(name, new DataStore(generateCameras({ ...options.generate, seed: options.seed })))
      continue
    }
    let served = prepared.get(dataKey)
    if (served === undefined) {
      served = prepareServedData(data !== undefined && options.fixtures === undefined ? datasetFromData(data) : await loadFixtures(options.fixtures ?? BUNDLED_FIXTURES))
      prepared.set(dataKey, served)
    }
    stores.set(name, DataStore.serving(served))
  }
  return stores
}

// Every device on its port, or a free one; if any fails, the error names the first device that failed and the caller closes the rest.
// Their schedules and drift start once every one listens, in their order: a port taken meanwhile and tried again
// changes no device's timeline, nor the order of the devices' events.
async function listenAll (devices: readonly Device[], ports: readonly DevicePort[], plans: readonly DevicePlan[], host: string): Promise<void> {
  await listenDevices(plans, async (index, port) => await (devices[index] as Device).open(ports[index] as DevicePort, port, host))
  for (const device of devices) device.begin()
}

function deviceHandle (app: FastifyInstance, { device, url }: RosterEntry, certificate: string | undefined): Omit<MockNvr, 'clock'> {
  return {
    name: device.name,
    url,
    port: (device.port as DevicePort).port,
    host: new URL(url).hostname.replace(/^\[|\]$/g, ''),
    app,
    ...(certificate === undefined ? {} : { certificate }),
    close: async () => await device.close(),
    ...device.verbs()
  }
}

function logStart (app: FastifyInstance, plans: readonly DevicePlan[], controlUrl: string, admin: boolean): void {
  const ports = plans.map(plan => plan.options.port)
  app.log.info({ devices: plans.length, first: (plans[0] as DevicePlan).name, last: (plans.at(-1) as DevicePlan).name }, 'serving a fleet of devices')
  if (ports.every(port => port !== 0)) app.log.info({ from: Math.min(...ports), to: Math.max(...ports) }, 'device ports')
  if (admin) app.log.info(`the fleet's admin API at ${controlUrl}/__admin/devices, its dashboard at ${controlUrl}/__admin/ui/`)
  else app.log.info('no --admin-token: the fleet\'s admin API and dashboard are off')
}
