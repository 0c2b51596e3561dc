import type { FastifyInstance } from 'fastify'
import { ADMIN_PREFIX, API_PREFIX } from '../contract/paths.js'
import type { DevicePort } from '../device/device-port.js'
import type { Device, DeviceVerbs } from '../device/device.js'
import type { HandleClock } from '../device/handle-clock.js'
import type { RosterEntry } from '../device/roster.js'
import { serveDevices } from './serve-devices.js'
import { DASHBOARD_PATH } from '../admin-api/dashboard-page.js'
import { DataStore } from '../data/data-store.js'
import { loadStartupData } from './startup-data.js'
import { BUNDLED_FIXTURES } from '../data/fixtures.js'
import { createLogger, logsWritten } from '../logging/logger.js'
import { describeListenError } from './listen-error.js'
import { resolveOptions, type MockNvrOptions } from '../config/options.js'
import { OptionsError } from '../errors/errors.js'
import type { ResolvedOptions } from '../config/options-schema.js'
import { FLEET_OPTIONS } from '../config/settings.js'
import { loadTls, type ServedTls } from '../config/tls.js'
import { proxyRefusal } from '../config/proxy-refusals.js'
import type { TokenPolicy } from '../wire/token-policy.js'
import type { TargetProxy, ProxyOptions } from '../target-proxy/target-proxy.js'
import { loadDeviceSchedule } from './device-schedule.js'
import type { TargetLinkError } from '../errors/errors.js'

/** A running mock: where it listens, how to stop it, and what a test can change or ask while it runs. */
export interface MockNvr extends DeviceVerbs {
  /** The device's name: `nvr` for a single mock-nvr, its own (`nvr-001`, or the fleet file's) in a fleet. */
  name: string
  /** Base URL, e.g. http://127.0.0.1:41234 (loopback too on 0.0.0.0 or ::); the API is under `${url}/nvr/v1`. */
  url: string
  port: number
  host: string
  /** The Fastify instance, for inject() or anything else Fastify offers. */
  app: FastifyInstance
  /** The PEM certificate served over HTTPS (e.g. the self-signed one, to trust as `ca`); undefined over HTTP. */
  certificate?: string
  /** Stops listening; requests in flight finish first. */
  close: () => Promise<void>
  /** The device's clock: with `clock: 'manual'`, advance(ms) walks its schedules and answers the requests it holds. */
  clock: HandleClock
}

/** What startMockNvr takes: the options, and a target (a real NVR) to forward /nvr/v1 to instead of serving data. */
export type StartOptions = MockNvrOptions & {
  /** Forward /nvr/v1 to this target, checking its answers against the contract; fixtures, data and tokens do not apply. */
  proxy?: ProxyOptions
}

/** Loads the data, builds the app and listens: a fleet of one whose admin API shares its port. The CLI goes through here too. */
export async function startMockNvr ({ proxy: proxyOptions, ...input }: StartOptions = {}): Promise<MockNvr> {
  refuseFleetOptions(input)
  const options = resolveOptions(input)
  const proxy = proxyOptions === undefined ? undefined : await startProxy(proxyOptions, input)
  await proxy?.recording?.check()
  const tls = await loadTls(options)
  const fixtures = options.fixtures ?? BUNDLED_FIXTURES
  const { data, source, note } = proxy === undefined ? await loadStartupData(options, fixtures) : { data: { cameraIds: [], lines: [] }, source: `the target at ${proxy.target}`, note: undefined }
  const logger = options.logger ?? createLogger(options)
  const schedule = await loadDeviceSchedule(options)
  const store = new DataStore(data)
  const served = await serveDevices({
    devices: [{ name: 'nvr', options, store, schedule, log: logger, fixtures }],
    shared: options,
    logger,
    tls,
    control: 'device',
    watch: options.watch,
    ...(proxy === undefined ? {} : { proxy })
  })
  const { app } = served
  const device = served.devices[0] as Device
  if (proxy !== undefined) logProxy(app, proxy, proxyOptions as ProxyOptions)
  await served.listen({
    devices: async ([only], [port]) => {
      await (only as Device).listen(port as DevicePort, options.port, options.host).catch((error: unknown) => { throw describeListenError(error, options.host, options.port) })
    }
  })
  logServing(app, { source, note, store, proxied: proxy !== undefined, tokens: device.tokens, tls })
  logControlOptions(app, device, options)
  logSchedule(app, device, schedule.driftEvery, served.clock)
  // Written before the URL is given out, so the start-up lines come before anything a client causes.
  await logsWritten(logger)

  const { url } = served.roster.entries[0] as RosterEntry
  return {
    name: device.name,
    url,
    port: (device.port as DevicePort).port,
    host: options.host,
    app,
    certificate: tls?.cert,
    close: served.close,
    ...device.verbs(),
    clock: served.clock
  }
}

function refuseFleetOptions (input: MockNvrOptions): void {
  for (const key of FLEET_OPTIONS) {
    if (input[key] !== undefined) throw new OptionsError(`option ${key} starts a fleet: call startMockFleet instead`)
  }
}

interface Serving {
  source: string
  note: string | undefined
  store: DataStore
  proxied: boolean
  tokens: TokenPolicy
  tls: ServedTls | undefined
}

function logServing (app: FastifyInstance, { source, note, store, proxied, tokens, tls }: Serving): void {
  app.log.info({ source, cameras: store.current.cameras.size, countingLines: store.current.lineCount }, 'serving counting lines')
  if (note !== undefined) app.log.info(note)
  if (tokens.acceptsAnyToken && !proxied) app.log.info('no --token configured: any non-empty bearer token is accepted')
  if (tls !== undefined) app.log.info({ selfSigned: tls.selfSigned, names: tls.names }, 'serving HTTPS')
}

// The proxy's HTTP client (undici) and contract checks are loaded only for a proxy: a plain start never needs them.
async function startProxy (proxyOptions: ProxyOptions, input: MockNvrOptions): Promise<TargetProxy> {
  const refusal = proxyRefusal(input)
  if (refusal !== undefined) throw new OptionsError(refusal)
  /* c8 ignore next: tsx wraps each import() in a CommonJS interop check that an ES module never takes */
  const { TargetProxy } = await import('../target-proxy/target-proxy.js')
  try {
    return new TargetProxy(proxyOptions)
  } catch (error) {
    const { option, message } = error as TargetLinkError
    throw new OptionsError(`option proxy.${option as string} is invalid: ${message}`)
  }
}

function logProxy (app: FastifyInstance, proxy: TargetProxy, { insecure, record }: ProxyOptions): void {
  app.log.info(`forwarding ${API_PREFIX} to ${proxy.target}; answers that break the contract are logged once per path`)
  if (insecure === true) app.log.warn('the target\'s certificate is not checked (insecure)')
  if (record !== undefined) app.log.info({ file: record }, 'valid lists and lines that pass are written to the file on stop')
  app.addHook('onClose', async function writeRecording () {
    try {
      const written = await proxy.recording?.write()
      if (written !== undefined) app.log.info({ file: record, ...written }, 'recording written')
    } catch (error) {
      app.log.error(`the recording was not written: ${(error as Error).message}`)
    }
  })
}

function logSchedule (app: FastifyInstance, device: Device, driftEvery: number | undefined, clock: HandleClock): void {
  const { next } = device.verbs().health()
  if (next.length > 0) app.log.info({ next: next.slice(0, 3) }, 'health follows a schedule')
  if (driftEvery !== undefined) app.log.info({ everyMs: driftEvery }, 'the data drifts: a seeded edit each period')
  if (clock.manual) app.log.info('the clock is manual: schedules, latency, fault delays and the rate limit move only when told (POST /__admin/clock)')
}

function logControlOptions (app: FastifyInstance, device: Device, { adminToken }: ResolvedOptions): void {
  for (const line of device.startLines()) app.log.info(...line)
  if (adminToken !== undefined) app.log.info(`admin API on at ${ADMIN_PREFIX}/, for callers with the admin token; its dashboard at ${DASHBOARD_PATH}/`)
}
