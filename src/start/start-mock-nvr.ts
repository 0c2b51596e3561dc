import type { FastifyInstance } from 'fastify'
import { ADMIN_PREFIX } from '../admin-api/routes.js'
import { buildApp } from '../app/build-app.js'
import { TokenPolicy } from '../wire/token-policy.js'
import { MockControl, type DataSummary } from '../control/mock-control.js'
import { CorsPolicy } from '../wire/cors.js'
import { DataStore } from '../data/data-store.js'
import { loadStartupData } from './startup-data.js'
import { toDelayRange, type DelayRange } from '../util/delay.js'
import type { Fault, FaultSpec } from '../control/faults/fault-spec.js'
import { BUNDLED_FIXTURES } from '../data/fixtures.js'
import type { JournalEntry } from '../control/journal.js'
import { pickLimits } from '../config/limits.js'
import { createLogger, logsWritten } from '../logging/logger.js'
import { resolveOptions, type MockNvrOptions, type ResolvedOptions } from '../config/options.js'
import type { FixtureData } from '../wire/schemas.js'
import { loadTls } from '../config/tls.js'
import { FixtureWatcher } from '../data/watch.js'

/** A running mock: where it listens, and how to stop it. */
export interface MockNvr {
  /** Base URL, e.g. http://127.0.0.1:41234; the API is under `${url}/nvr/v1`. */
  url: string
  port: number
  host: string
  /** The Fastify instance, for inject() or anything else Fastify offers. */
  app: FastifyInstance
  /** The PEM certificate served over HTTPS (e.g. the self-signed one, to trust as `ca`); undefined over HTTP. */
  certificate?: string
  /** Stops listening; requests in flight finish first. */
  close: () => Promise<void>
  /** Serves this data from the next request on; validated like a fixture file, it throws FixtureError and changes nothing if refused. */
  use: (data: FixtureData) => DataSummary
  /** The data being served, in the shape of a fixture file. */
  data: () => FixtureData
  /** Serves the start-up data again; with watch on, what the fixture files hold now. */
  resetData: () => DataSummary
  /** The requests received (admin calls aside), oldest first; the journal keeps the last journalSize. */
  requests: () => JournalEntry[]
  /** Empties the request journal. */
  resetRequests: () => void
  /** Injects a fault and returns it with its id; throws InvalidFaultError naming each problem of the spec. */
  injectFault: (spec: FaultSpec) => Fault
  /** The faults in force, oldest first, with how many requests each still applies to. */
  faults: () => Fault[]
  /** Clears one fault by id (false when there is none), or every fault. */
  clearFaults: (id?: string) => boolean
  /** Back to the start-up state: the start-up data, no faults, an empty journal. */
  reset: () => void
  /** What the verbs above go through, as the admin API does. */
  control: MockControl
}

/** Loads the data, builds the app and listens. The CLI goes through here too. */
export async function startMockNvr (input: MockNvrOptions = {}): Promise<MockNvr> {
  const options = resolveOptions(input)
  const tls = await loadTls(options)
  const fixtures = options.fixtures ?? BUNDLED_FIXTURES
  const { data, source, note } = await loadStartupData(options, fixtures)
  const logger = options.logger ?? createLogger(options)
  // With no --token any token opens the device API, except the admin token.
  const tokens = new TokenPolicy(options.tokens, options.adminToken === undefined ? [] : [options.adminToken])
  const store = new DataStore(data)
  const control = new MockControl({ store, latency: latencyRange(options), allowPrefer: options.allowPrefer, seed: options.seed, journalSize: options.journalSize })
  const app = await buildApp({
    store,
    tokens,
    cors: new CorsPolicy(options.corsOrigins),
    maxHeaderSize: options.maxHeaderSize,
    limits: pickLimits(options),
    logger,
    ...(tls === undefined ? {} : { https: { cert: tls.cert, key: tls.key } }),
    control,
    ...(options.adminToken === undefined ? {} : { adminToken: options.adminToken })
  })

  if (options.watch) {
    const watcher = new FixtureWatcher({ path: fixtures, store, log: app.log })
    app.addHook('onClose', async function stopWatching () { await watcher.close() })
  }

  await app.listen({ port: options.port, host: options.host })
  const address = app.server.address()
  /* c8 ignore next: listen on a TCP port always yields an AddressInfo, never a pipe name */
  const port = typeof address === 'object' && address !== null ? address.port : options.port
  const url = baseUrl(options.host, port, tls === undefined ? 'http' : 'https')

  app.log.info({
    source,
    cameras: store.current.cameras.size,
    countingLines: store.current.lineCount
  }, 'serving counting lines')
  if (note !== undefined) app.log.info(note)
  if (tokens.acceptsAnyToken) app.log.info('no --token configured: any non-empty bearer token is accepted')

  if (tls !== undefined) app.log.info({ selfSigned: tls.selfSigned, names: tls.names }, 'serving HTTPS')
  logControlOptions(app, options)
  // Written before the URL is given out, so the start-up lines come before anything a client causes.
  await logsWritten(logger)

  return {
    url,
    port,
    host: options.host,
    app,
    certificate: tls?.cert,
    close: async () => {
      await app.close()
      await logsWritten(logger)
    },
    use: data => control.use(data),
    data: () => control.data(),
    resetData: () => control.resetData(),
    requests: () => control.requests(),
    resetRequests: () => control.resetRequests(),
    injectFault: spec => control.injectFault(spec),
    faults: () => control.listFaults(),
    clearFaults: id => control.clearFaults(id),
    reset: () => control.reset(),
    control
  }
}

function latencyRange ({ latency }: ResolvedOptions): DelayRange | undefined {
  // resolveOptions has refused a backwards range.
  return latency === undefined ? undefined : toDelayRange(latency) as DelayRange
}

function logControlOptions (app: FastifyInstance, { adminToken, latency, allowPrefer }: ResolvedOptions): void {
  if (adminToken !== undefined) app.log.info(`admin API on at ${ADMIN_PREFIX}/, for callers with the admin token`)
  if (latency !== undefined) app.log.info({ latency }, 'every API request is delayed')
  if (allowPrefer) app.log.info('Prefer headers may ask for a status or a delay (code=…, delay=…)')
}

/** The URL a client uses for a host and port; an IPv6 address goes in brackets. */
export function baseUrl (host: string, port: number, protocol: 'http' | 'https' = 'http'): string {
  return `${protocol}://${host.includes(':') ? `[${host}]` : host}:${port}`
}
