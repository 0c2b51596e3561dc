import type { FastifyInstance } from 'fastify'
import { RateLimitBodySchema, ScopedTokensSchema } from '../contract/schemas.js'
import type { DeviceOf } from './device-of.js'
import { ok, route } from './routing.js'

/**
 * /scoped-tokens and /rate-limit: who sees which camera, and how often a token may ask. A token that cannot be
 * scoped (the admin token, an all-camera one) is a ScopedTokensError, the 400 naming it by its JSON path.
 */
export function registerAccessRoutes (app: FastifyInstance, deviceOf: DeviceOf): void {
  // The tokens are never given back, nor logged: GET and PUT answer how many there are.
  route(app, '/scoped-tokens', {
    GET: (request, reply) => ok(reply, deviceOf(request).scopedTokens()),
    PUT: (request, reply) => {
      const summary = deviceOf(request).setScopedTokens(request.body)
      request.log.info(summary, 'admin: scoped tokens replaced')
      return ok(reply, summary)
    }
  }, { schema: { hide: true, body: ScopedTokensSchema } })

  route(app, '/rate-limit', {
    GET: (request, reply) => ok(reply, deviceOf(request).rateLimit()),
    PUT: (request, reply) => {
      const summary = deviceOf(request).setRateLimit((request.body as { rateLimit: number | null }).rateLimit)
      request.log.info(summary, 'admin: rate limit set')
      return ok(reply, summary)
    }
  }, { schema: { hide: true, body: RateLimitBodySchema } })
}
