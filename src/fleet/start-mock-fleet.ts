import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { buildServingApp } from '../app/build-app.js'
import type { DevicePort } from '../device/device-port.js'
import type { Device, DeviceSchedule } from '../device/device.js'
import { Roster, type RosterEntry } from '../device/roster.js'
import { handleClock, type HandleClock } from '../device/handle-clock.js'
import { fleetJournal, type FleetJournalEntry } from '../admin-api/fleet-routes.js'
import { DataStore, prepareServedData, type ServedData } from '../data/data-store.js'
import { datasetFromData } from '../data/dataset.js'
import { BUNDLED_FIXTURES, loadFixtures } from '../data/fixtures.js'
import { generateCameras } from '../data/generate.js'
import { pickLimits } from '../config/limits.js'
import { loadTls } from '../config/tls.js'
import { resolveOptions } from '../config/options.js'
import { createLogger, deviceLogger, logsWritten } from '../logging/logger.js'
import { makeDevice, SharedDeviceParts } from '../device/make-device.js'
import type { MockNvr } from '../start/start-mock-nvr.js'
import { baseUrl } from '../util/listen-address.js'
import { describeControlListenError } from '../start/listen-error.js'
import { controlPortOf, planDevices, type DevicePlan, type FleetOptions } from './fleet-options.js'
import { writeManifest } from './manifest.js'
import { listenDevices } from './free-ports.js'
import { loadDeviceSchedule } from '../start/device-schedule.js'
import { ManualClock, type Clock } from '../util/clock.js'
import { clockOf } from '../util/real-clock.js'
import { watchFixtures } from '../start/watch-fixtures.js'

/** A running fleet: its control address, its devices, and verbs on all of them at once. */
export interface MockFleet {
  /** The admin API and dashboard of every device, e.g. http://127.0.0.1:8079 (with an admin token). */
  controlUrl: string
  /** Each device's handle, in order: its url, port and the verbs of startMockNvr's handle; its close() closes its port alone. */
  devices: MockNvr[]
  /** The device of this name, or undefined. */
  device: (name: string) => MockNvr | undefined
  /** Every device's journal as one, oldest first, each entry with its device's name. */
  requests: () => FleetJournalEntry[]
  /** Every device back to its start: its start-up data, no faults, an empty journal, its health from its start; resolves once every port is back. */
  reset: () => Promise<void>
  /** The one Fastify instance that serves every device. */
  app: FastifyInstance
  /** Stops every device and the control address; requests in flight finish first. */
  close: () => Promise<void>
  /** The schedules' clock of every device: with `clock: 'manual'`, advance(ms) walks them all. */
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
  const clock = clockOf(shared.clock)
  const { devices, logs, schedules } = await fleetDevices(plans, input.data, clock, logger)
  const roster = new Roster(devices)
  const settled = async () => await roster.settled()
  const { app, listener: control, addListener } = await buildServingApp({
    device: devices[0] as Device,
    maxHeaderSize: shared.maxHeaderSize,
    limits: pickLimits(shared),
    logger,
    ...(tls === undefined ? {} : { https: { cert: tls.cert, key: tls.key } }),
    ...(shared.adminToken === undefined ? {} : { adminToken: shared.adminToken }),
    fleet: { roster, ...(clock instanceof ManualClock ? { manualClock: { clock, settled } } : {}) }
  })
  const protocol = tls === undefined ? 'http' : 'https'
  const ports = devices.map((device, index) => addListener({ device, api: true, admin: false, log: logs[index] as FastifyBaseLogger }))
  try {
    if (input.watch === true) watchFixtures(app, watchedStores(plans, devices))
    await app.ready()
    const controlUrl = baseUrl(shared.host, await control.listen(controlPort, shared.host).catch((error: unknown) => { throw describeControlListenError(error, shared.host, controlPort) }), protocol)
    input.onControlListening?.(controlUrl)
    await listenAll(devices, ports, plans, shared.host)
    devices.forEach((device, index) => { roster.add(device, baseUrl(shared.host, (ports[index] as DevicePort).port, protocol)) })
    await settled()
    if (input.manifest !== undefined) await writeFleetManifest(input.manifest, roster, schedules)
    logStart(app, plans, controlUrl, shared.adminToken !== undefined)
    await logsWritten(logger)
    const fleetClock = handleClock(clock, settled)
    const handles = roster.entries.map(entry => ({ ...deviceHandle(app, entry, tls?.cert), clock: fleetClock }))
    const byName = new Map(handles.map((handle, index) => [(plans[index] as DevicePlan).name, handle]))
    roster.holdProcess()
    return {
      controlUrl,
      devices: handles,
      device: name => byName.get(name),
      requests: () => fleetJournal(roster),
      reset: async () => await roster.reset(),
      app,
      close: async () => {
        await roster.stop()
        await app.close()
        await logsWritten(logger)
      },
      clock: fleetClock
    }
  } catch (error) {
    // Never half started: whatever listens is closed.
    await roster.stop()
    await app.close()
    throw error
  }
}

/** The stores of the devices that serve fixture files, by the path they serve; generated and in-memory data aside. */
function watchedStores (plans: readonly DevicePlan[], devices: readonly Device[]): Map<string, DataStore[]> {
  const byPath = new Map<string, DataStore[]>()
  plans.forEach(({ options, dataKey }, index) => {
    if (dataKey !== 'bundled' && !dataKey.startsWith('fixtures:')) return
    const path = options.fixtures ?? BUNDLED_FIXTURES
    const stores = byPath.get(path) ?? []
    stores.push((devices[index] as Device).store)
    byPath.set(path, stores)
  })
  return byPath
}

/** Each plan's device on its store and schedule, with a logger that names it. */
async function fleetDevices (plans: readonly DevicePlan[], data: unknown, clock: Clock, logger: FastifyBaseLogger): Promise<{ devices: Device[], logs: FastifyBaseLogger[], schedules: DeviceSchedule[] }> {
  const stores = await loadStores(plans, data)
  const schedules = await Promise.all(plans.map(async plan => await loadDeviceSchedule(plan.options)))
  // Every line about one device names it.
  const logs = plans.map(plan => deviceLogger(logger, plan.name))
  // Devices of the same settings share their CORS policy and their tokens' digests.
  const parts = new SharedDeviceParts()
  const devices = plans.map((plan, index) => makeDevice(plan.name, plan.options, stores.get(plan.name) as DataStore, { clock }, {
    schedule: schedules[index] as DeviceSchedule, clock, seed: plan.options.seed, log: logs[index] as FastifyBaseLogger
  }, parts))
  return { devices, logs, schedules }
}

// Each device as the manifest lists it; a device with a schedule has its timeline there, one always online needs none.
async function writeFleetManifest (path: string, roster: Roster, schedules: readonly DeviceSchedule[]): Promise<void> {
  await writeManifest(path, roster.entries.map((entry, index) => {
    const listed = { name: entry.device.name, url: entry.url, cameras: [...entry.device.store.current.dataset.cameraIds] }
    if ((schedules[index] as DeviceSchedule).plan === undefined) return listed
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
