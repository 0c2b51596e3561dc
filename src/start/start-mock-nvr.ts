import type { FastifyInstance } from 'fastify'
import { ADMIN_PREFIX, API_PREFIX } from '../contract/paths.js'
import { buildApp } from '../app/build-app.js'
import { DASHBOARD_PATH } from '../admin-api/dashboard-page.js'
import { TokenPolicy } from '../wire/token-policy.js'
import { MockControl } from '../control/mock-control.js'
import { verbsOf, type ControlVerbs } from '../control/control-verbs.js'
import { CorsPolicy } from '../wire/cors.js'
import { DataStore } from '../data/data-store.js'
import { loadStartupData } from './startup-data.js'
import { toDelayRange, type DelayRange } from '../util/delay.js'
import { BUNDLED_FIXTURES } from '../data/fixtures.js'
import { pickLimits } from '../config/limits.js'
import { createLogger, logsWritten } from '../logging/logger.js'
import { baseUrl } from '../util/listen-address.js'
import { describeListenError } from './listen-error.js'
import { OptionsError, resolveOptions, type MockNvrOptions, type ResolvedOptions } from '../config/options.js'
import { loadTls } from '../config/tls.js'
import { FixtureWatcher } from '../data/watch.js'
import { DeviceProxy, type ProxyOptions } from '../device-proxy/device-proxy.js'
import { DeviceLinkError } from '../device-client/device-target.js'

/** A running mock: where it listens, how to stop it, and what a test can change or ask while it runs. */
export interface MockNvr extends ControlVerbs {
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
}

/** What startMockNvr takes: the options, and a device to forward /nvr/v1 to instead of serving data. */
export type StartOptions = MockNvrOptions & {
  /** Forward /nvr/v1 to this device, checking its answers against the contract; fixtures, data and tokens do not apply. */
  proxy?: ProxyOptions
  /** The rate limit's clock in milliseconds (performance.now by default), for a test that moves time by hand. */
  now?: () => number
}

/** Loads the data, builds the app and listens. The CLI goes through here too. */
export async function startMockNvr ({ proxy: proxyOptions, now, ...input }: StartOptions = {}): Promise<MockNvr> {
  const options = resolveOptions(input)
  const proxy = proxyOptions === undefined ? undefined : startProxy(proxyOptions, input)
  await proxy?.recording?.check()
  const tls = await loadTls(options)
  const fixtures = options.fixtures ?? BUNDLED_FIXTURES
  const { data, source, note } = proxy === undefined ? await loadStartupData(options, fixtures) : { data: { cameraIds: [], lines: [] }, source: `the device at ${proxy.target}`, note: undefined }
  const logger = options.logger ?? createLogger(options)
  // With no --token any token opens the device API, except the admin token.
  const tokens = new TokenPolicy(options.tokens, options.adminToken === undefined ? [] : [options.adminToken], options.scopedTokens)
  const store = new DataStore(data)
  const control = new MockControl({
    store,
    latency: latencyRange(options),
    allowPrefer: options.allowPrefer,
    seed: options.seed,
    journalSize: options.journalSize,
    ...(proxy === undefined ? {} : { proxiedDevice: proxy.target }),
    access: tokens,
    scopedTokens: options.scopedTokens,
    ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
    ...(now === undefined ? {} : { now })
  })
  const app = await buildApp({
    store,
    tokens,
    cors: new CorsPolicy(options.corsOrigins),
    maxHeaderSize: options.maxHeaderSize,
    limits: pickLimits(options),
    logger,
    ...(tls === undefined ? {} : { https: { cert: tls.cert, key: tls.key } }),
    control,
    ...(options.adminToken === undefined ? {} : { adminToken: options.adminToken }),
    ...(proxy === undefined ? {} : { proxy })
  })
  if (proxy !== undefined) logProxy(app, proxy, proxyOptions as ProxyOptions)

  if (options.watch) {
    const watcher = new FixtureWatcher({ path: fixtures, store, log: app.log })
    app.addHook('onClose', async function stopWatching () { await watcher.close() })
  }

  await listenQuietly(app, options.port, options.host)
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
  if (tokens.acceptsAnyToken && proxy === undefined) app.log.info('no --token configured: any non-empty bearer token is accepted')

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
    ...verbsOf(control)
  }
}

function startProxy (proxyOptions: ProxyOptions, input: MockNvrOptions): DeviceProxy {
  for (const option of ['fixtures', 'generate', 'data', 'watch', 'tokens', 'scopedTokens', 'rateLimit'] as const) {
    const value = input[option]
    if (value !== undefined && value !== false && !(Array.isArray(value) && value.length === 0)) {
      throw new OptionsError(`option ${option} does not apply to a proxy: the device's data and tokens are used`)
    }
  }
  try {
    return new DeviceProxy(proxyOptions)
  } catch (error) {
    const { option, message } = error as DeviceLinkError
    throw new OptionsError(`option proxy.${option as string} is invalid: ${message}`)
  }
}

function logProxy (app: FastifyInstance, proxy: DeviceProxy, { insecure, record }: ProxyOptions): void {
  app.log.info(`forwarding ${API_PREFIX} to ${proxy.target}; answers that break the contract are logged once per path`)
  if (insecure === true) app.log.warn('the device\'s certificate is not checked (insecure)')
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

function latencyRange ({ latency }: ResolvedOptions): DelayRange | undefined {
  // resolveOptions has refused a backwards range.
  return latency === undefined ? undefined : toDelayRange(latency) as DelayRange
}

/**
 * Listens without Fastify's own "Server listening at …" lines, one for each interface of a wildcard host: the CLI's
 * ready line says it once, with a URL to open, and stays the only line a script finds by "listening".
 */
async function listenQuietly (app: FastifyInstance, port: number, host: string): Promise<void> {
  // Booted first, so that what the plugins log as they load keeps its level.
  await app.ready()
  const level = app.log.level
  if (['info', 'debug', 'trace'].includes(level)) app.log.level = 'warn'
  try {
    await app.listen({ port, host })
  } catch (error) {
    throw describeListenError(error, host, port)
  } finally {
    app.log.level = level
  }
}

function logControlOptions (app: FastifyInstance, { adminToken, latency, allowPrefer, scopedTokens, rateLimit }: ResolvedOptions): void {
  // How many, never which: tokens stay out of the logs.
  if (scopedTokens.length > 0) app.log.info({ scopedTokens: new Set(scopedTokens.map(({ token }) => token)).size }, 'scoped tokens see only their cameras; any other camera is 403')
  if (rateLimit !== undefined) app.log.info({ rateLimit }, 'API requests are limited per token, per second; past the limit 429 with Retry-After')
  if (adminToken !== undefined) app.log.info(`admin API on at ${ADMIN_PREFIX}/, for callers with the admin token; its dashboard at ${DASHBOARD_PATH}/`)
  if (latency !== undefined) app.log.info({ latency }, 'every API request is delayed')
  if (allowPrefer) app.log.info('Prefer headers may ask for a status or a delay (code=…, delay=…)')
}
