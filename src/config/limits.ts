import type { ServerOptions } from 'node:http'
import type { Server } from 'node:net'
import type { FastifyBaseLogger } from 'fastify'

/** The server's limits on slow, idle and too many connections; each one is an option and a CLI flag. */
export interface ServerLimits {
  /** Milliseconds to send the request line and headers; 0: no limit. */
  headersTimeout: number
  /** Milliseconds to send a whole request; 0: no limit. */
  requestTimeout: number
  /** Milliseconds an idle keep-alive connection stays open. */
  keepAliveTimeout: number
  /** Connections held at once; 0: no cap. */
  maxConnections: number
}

export const DEFAULT_LIMITS: ServerLimits = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 72_000,
  maxConnections: 1000
}

/**
 * The largest request body read: no route of the API takes one, and only a JSON or text body sent to an
 * unknown path is read at all (admin calls send small JSON). Larger ones get 413 from Content-Length alone.
 */
export const BODY_LIMIT_BYTES = 1024 * 1024

/** At most this long between two checks for expired requests; Node checks every 30 s by default. */
const MAX_CHECK_INTERVAL_MS = 1000
/** At most one warning per this many milliseconds while connections are being refused. */
const REFUSAL_WARNING_INTERVAL_MS = 10_000

export function pickLimits (options: ServerLimits): ServerLimits {
  const { headersTimeout, requestTimeout, keepAliveTimeout, maxConnections } = options
  return { headersTimeout, requestTimeout, keepAliveTimeout, maxConnections }
}

/**
 * Options of Node's HTTP(S) server: the header size and the time-outs for slow clients. Node refuses
 * a headers time-out longer than the request time-out; it is shortened to it instead, so setting one
 * flag alone always works.
 */
export function nodeServerOptions (maxHeaderSize: number, { headersTimeout, requestTimeout }: ServerLimits): ServerOptions {
  const effectiveHeadersTimeout = requestTimeout > 0 && headersTimeout > requestTimeout ? requestTimeout : headersTimeout
  const timeouts = [effectiveHeadersTimeout, requestTimeout].filter(timeout => timeout > 0)
  return {
    maxHeaderSize,
    headersTimeout: effectiveHeadersTimeout,
    requestTimeout,
    // Expired requests are only noticed when Node checks; check often enough for the limit to mean what it says.
    connectionsCheckingInterval: Math.min(MAX_CHECK_INTERVAL_MS, ...timeouts),
    // A request without Host is answered in the error envelope by http-edges.ts, not with Node's empty 400.
    requireHostHeader: false
  }
}

/** Caps the connections held at once; Node closes any more at once, unanswered, and the log says why. */
export function capConnections (server: Server, maxConnections: number, log: FastifyBaseLogger): void {
  if (maxConnections === 0) return
  server.maxConnections = maxConnections
  let refused = 0
  let lastWarning = -Infinity
  server.on('drop', function warnOfRefusedConnection () {
    refused++
    const now = Date.now()
    if (now - lastWarning < REFUSAL_WARNING_INTERVAL_MS) return
    lastWarning = now
    log.warn({ maxConnections, refused }, `connection refused: ${maxConnections} connections are open already (--max-connections)`)
  })
}
