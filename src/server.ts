import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.js'
import { TokenPolicy } from './auth.js'
import { CorsPolicy } from './cors.js'
import { DataStore } from './data-store.js'
import { loadStartupData } from './data-source.js'
import { BUNDLED_FIXTURES } from './fixtures.js'
import { createLogger } from './logger.js'
import { resolveOptions, type MockNvrOptions } from './options.js'
import { pickLimits } from './limits.js'
import { loadTls } from './tls.js'
import { FixtureWatcher } from './watch.js'

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
}

/** Loads the data, builds the app and listens. The CLI goes through here too. */
export async function startMockNvr (input: MockNvrOptions = {}): Promise<MockNvr> {
  const options = resolveOptions(input)
  const tls = await loadTls(options)
  const fixtures = options.fixtures ?? BUNDLED_FIXTURES
  const { dataset, source, note } = await loadStartupData(options, fixtures)
  const logger = options.logger ?? createLogger(options)
  const tokens = new TokenPolicy(options.tokens)
  const store = new DataStore(dataset)
  const app = await buildApp({
    store,
    tokens,
    cors: new CorsPolicy(options.corsOrigins),
    maxHeaderSize: options.maxHeaderSize,
    limits: pickLimits(options),
    logger,
    ...(tls === undefined ? {} : { https: { cert: tls.cert, key: tls.key } })
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
    cameras: dataset.cameraIds.length,
    countingLines: dataset.lines.length
  }, 'serving counting lines')
  if (note !== undefined) app.log.info(note)
  if (tokens.acceptsAnyToken) app.log.info('no --token configured: any non-empty bearer token is accepted')

  if (tls !== undefined) app.log.info({ selfSigned: tls.selfSigned, names: tls.names }, 'serving HTTPS')

  return { url, port, host: options.host, app, certificate: tls?.cert, close: () => app.close() }
}

/** The URL a client uses for a host and port; an IPv6 address goes in brackets. */
export function baseUrl (host: string, port: number, protocol: 'http' | 'https' = 'http'): string {
  return `${protocol}://${host.includes(':') ? `[${host}]` : host}:${port}`
}
