import type { FastifyCorsOptions } from '@fastify/cors'
import type { FastifyReply, FastifyRequest } from 'fastify'

const ALLOWED_METHODS = ['GET', 'HEAD']
// Without these, a browser app cannot read why it was refused or when to retry.
const EXPOSED_HEADERS = ['WWW-Authenticate', 'Allow', 'Retry-After']
const PREFLIGHT_MAX_AGE_SECONDS = 600

/** Who may call the API from a browser: any origin when the list is empty. */
export class CorsPolicy {
  readonly origins: readonly string[]

  constructor (origins: readonly string[] = []) {
    this.origins = origins
  }

  /** Options for @fastify/cors. A plain OPTIONS request is not a preflight, so it reaches the 405 route. */
  pluginOptions (): FastifyCorsOptions {
    const options: FastifyCorsOptions = {
      origin: this.origins.length === 0 ? '*' : [...this.origins],
      methods: ALLOWED_METHODS,
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: PREFLIGHT_MAX_AGE_SECONDS
    }
    const plainOptions = { ...options, preflight: false }
    return {
      delegator: (request, callback) => {
        callback(null, request.method === 'OPTIONS' && !isPreflight(request) ? plainOptions : options)
      }
    }
  }

  /** The same headers the plugin sets, for answers given before any hook runs (a malformed URL). */
  applyTo (request: FastifyRequest, reply: FastifyReply): void {
    const origin = request.headers.origin
    if (this.origins.length === 0) {
      reply.header('access-control-allow-origin', '*')
    } else {
      reply.header('vary', 'Origin')
      if (origin === undefined || !this.origins.includes(origin)) return
      reply.header('access-control-allow-origin', origin)
    }
    reply.header('access-control-expose-headers', EXPOSED_HEADERS.join(', '))
  }
}

function isPreflight (request: { method?: string, headers: Record<string, unknown> }): boolean {
  return request.method === 'OPTIONS' &&
    request.headers.origin !== undefined &&
    request.headers['access-control-request-method'] !== undefined
}
