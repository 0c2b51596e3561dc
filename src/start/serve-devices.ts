import { setImmediate as nextTurn } from 'node:timers/promises'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { buildServingApp } from '../app/build-app.js'
import type { DevicePort } from '../device/device-port.js'
import type { Device, DeviceSchedule } from '../device/device.js'
import { Roster } from '../device/roster.js'
import { handleClock, type HandleClock } from '../device/handle-clock.js'
import { makeDevice, SharedDeviceParts } from '../device/make-device.js'
import type { DataStore } from '../data/data-store.js'
import { pickLimits } from '../config/limits.js'
import type { ResolvedOptions } from '../config/options-schema.js'
import type { ServedTls } from '../config/tls.js'
import { logsWritten } from '../logging/logger.js'
import type { TargetProxy } from '../target-proxy/target-proxy.js'
import { baseUrl } from '../util/listen-address.js'
import { clockOf } from '../util/real-clock.js'
import { ManualClock } from '../util/clock.js'
import { watchFixtures } from './watch-fixtures.js'

/** One device to serve: its name and resolved options, the store of its data, its schedule and its log. */
export interface DeviceToServe {
  name: string
  options: ResolvedOptions
  store: DataStore
  schedule: DeviceSchedule
  log: FastifyBaseLogger
  /** The fixture file or folder its data comes from, watched when watch is on; none for generated or in-memory data. */
  fixtures?: string
}

/**
 * What a mock-nvr serves, a single one or a fleet: its devices, in order, the options of the process (host, TLS,
 * limits, clock, admin token), and where its admin API is: on the port of its one device (a single mock-nvr),
 * or on a control address of its own (a fleet).
 */
export interface Serving {
  devices: readonly DeviceToServe[]
  shared: ResolvedOptions
  logger: FastifyBaseLogger
  tls: ServedTls | undefined
  /** 'device': the admin API shares the one device's port; else the control address's port. */
  control: 'device' | { port: number }
  /** Serve each edit of the devices' fixture files. */
  watch: boolean
  /** Forward the one device's /nvr/v1 to a target instead of its data. */
  proxy?: TargetProxy
}

/** How a mock-nvr's ports listen, and what its failures say. */
export interface Listening {
  /** Every device on its port, in the devices' order. */
  devices: (devices: readonly Device[], ports: readonly DevicePort[]) => Promise<void>
  /** Told the control address's URL as soon as it listens. */
  onControl?: (url: string) => void
  /** What a failure of the control address's listen is thrown as. */
  controlError?: (error: unknown) => unknown
}

/** A mock-nvr serving: the app, its devices on their ports, their one clock, and how it all stops. */
export interface Served {
  app: FastifyInstance
  roster: Roster
  devices: readonly Device[]
  /** The devices' ports, in order. */
  ports: readonly DevicePort[]
  /** The app's own listener: the one device's port, or the control address. */
  listener: DevicePort
  clock: HandleClock
  protocol: 'http' | 'https'
  /** Listens: the control address first, then every device; a failure closes everything, and is thrown as `how` says. */
  listen: (how: Listening) => Promise<void>
  /** Stops every device's timers, then closes every port and the app; requests in flight finish first. */
  close: () => Promise<void>
}

/**
 * The one start of every mock-nvr: its devices made by one factory on one clock, one app, a port per device,
 * the fixtures watched, and one close. A single mock-nvr is a fleet of one whose admin API shares its port.
 */
export async function serveDevices ({ devices: toServe, shared, logger, tls, control, watch, proxy }: Serving): Promise<Served> {
  const clock = clockOf(shared.clock)
  const parts = new SharedDeviceParts()
  const devices = toServe.map(({ name, options, store, schedule, log }) => makeDevice(name, options, store, {
    clock, ...(proxy === undefined ? {} : { proxiedTarget: proxy.target })
  }, { schedule, clock, seed: options.seed, log }, parts))
  const roster = new Roster(devices)
  const settled = async (): Promise<void> => await roster.settled()
  const manualClock = clock instanceof ManualClock ? { manualClock: { clock, settled } } : {}
  const { app, listener, addListener } = await buildServingApp({
    device: devices[0] as Device,
    maxHeaderSize: shared.maxHeaderSize,
    limits: pickLimits(shared),
    logger,
    ...(tls === undefined ? {} : { https: { cert: tls.cert, key: tls.key } }),
    ...(shared.adminToken === undefined ? {} : { adminToken: shared.adminToken }),
    ...(proxy === undefined ? {} : { proxy }),
    ...(control === 'device' ? manualClock : { fleet: { roster, ...manualClock } })
  })
  const ports = control === 'device' ? [listener] : devices.map((device, index) => addListener({ device, api: true, admin: false, log: (toServe[index] as DeviceToServe).log }))
  if (watch) watchFixtures(app, watchedStores(toServe))
  const protocol = tls === undefined ? 'http' : 'https'
  const close = async (): Promise<void> => {
    await roster.stop()
    await app.close()
    await logsWritten(logger)
  }
  const listen = async ({ devices: listenDevices, onControl, controlError = error => error }: Listening): Promise<void> => {
    try {
      await app.ready()
      if (control !== 'device') {
        const port = await listener.listen(control.port, shared.host).catch((error: unknown) => { throw controlError(error) })
        onControl?.(baseUrl(shared.host, port, protocol))
      }
      await listenDevices(devices, ports)
    } catch (error) {
      // Never half started: whatever listens is closed.
      await roster.stop()
      await app.close()
      throw error
    }
    devices.forEach((device, index) => { roster.add(device, baseUrl(shared.host, (ports[index] as DevicePort).port, protocol)) })
    roster.holdProcess()
    await settled()
  }
  return { app, roster, devices, ports, listener, clock: handleClock(clock, settled, nextTurn), protocol, listen, close }
}

/** The stores of the devices that serve fixture files, by the path they serve. */
function watchedStores (devices: readonly DeviceToServe[]): Map<string, DataStore[]> {
  const byPath = new Map<string, DataStore[]>()
  for (const { fixtures, store } of devices) {
    if (fixtures === undefined) continue
    const stores = byPath.get(fixtures)
    if (stores === undefined) byPath.set(fixtures, [store])
    else stores.push(store)
  }
  return byPath
}
