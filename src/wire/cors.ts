import { READ_METHODS_HEADER } from '../contract/paths.js'
import { ANY_ORIGIN } from './origin.js'

// Without these, a browser app cannot read why it was refused or when to retry.
const EXPOSED_HEADERS = 'WWW-Authenticate, Allow, Retry-After'
const PREFLIGHT_MAX_AGE_SECONDS = '600'
// Origin is in Vary even when any origin is allowed: caches then never mix answers across origins.
const ANY_ORIGIN_HEADERS = ['vary', 'Origin', 'access-control-allow-origin', '*', 'access-control-expose-headers', EXPOSED_HEADERS]
const REFUSED_ORIGIN_HEADERS = ['vary', 'Origin', 'access-control-expose-headers', EXPOSED_HEADERS]

/**
 * Who may call the API from a browser: any origin when the list is empty or only '*'. Every answer carries the
 * same CORS headers, so a browser app can read errors too; a preflight is answered before the bearer check.
 */
export class CorsPolicy {
  readonly #allowed: ReadonlySet<string>
  readonly #anyOrigin: boolean
  /** Each allowed origin's headers, made once: the fast path reuses an answer's header list while they are the same. */
  readonly #allowedHeaders = new Map<string, readonly string[]>()

  constructor (origins: readonly string[] = []) {
    this.#allowed = new Set(origins)
    this.#anyOrigin = origins.length === 0 || this.#allowed.has(ANY_ORIGIN)
  }

  /** The CORS headers of every answer, as name, value, name, value…, for a request from this origin. */
  headersFor (origin: string | undefined): readonly string[] {
    if (this.#anyOrigin) return ANY_ORIGIN_HEADERS
    if (origin === undefined || !this.#allowed.has(origin)) return REFUSED_ORIGIN_HEADERS
    let headers = this.#allowedHeaders.get(origin)
    if (headers === undefined) {
      headers = ['vary', 'Origin', 'access-control-allow-origin', origin, 'access-control-expose-headers', EXPOSED_HEADERS]
      this.#allowedHeaders.set(origin, headers)
    }
    return headers
  }
}

/** The headers a preflight adds to those of every answer, as name, value, name, value… */
export function preflightHeaders (requestedHeaders: string | undefined): string[] {
  const headers = ['vary', 'Origin, Access-Control-Request-Headers', 'access-control-allow-methods', READ_METHODS_HEADER]
  if (requestedHeaders !== undefined) headers.push('access-control-allow-headers', requestedHeaders)
  headers.push('access-control-max-age', PREFLIGHT_MAX_AGE_SECONDS)
  return headers
}

/** Whether a request is a CORS preflight; a plain OPTIONS request is not: it goes on to its route, which answers 405. */
export function isPreflight ({ method, headers }: { method: string, headers: Record<string, string | string[] | undefined> }): boolean {
  return method === 'OPTIONS' && headers.origin !== undefined && headers['access-control-request-method'] !== undefined
}
