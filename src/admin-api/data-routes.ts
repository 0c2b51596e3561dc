import type { FastifyInstance } from 'fastify'
import { FixtureDataSchema } from '../contract/schemas.js'
import type { DeviceOf } from './device-of.js'
import { ok, route } from './routing.js'

/** Replacement data may be large (generated data serializes to tens of megabytes). */
const DATA_BODY_LIMIT = 64 * 1024 * 1024

/**
 * /data: the data served, replaced or reset. Replacement data is checked as a fixture file is: its FixtureError
 * is the 400 listing each problem, and nothing changed; while proxying, the refusal is the target's 409.
 */
export function registerDataRoutes (app: FastifyInstance, deviceOf: DeviceOf): void {
  route(app, '/data', {
    GET: (request, reply) => ok(reply, deviceOf(request).data()),
    PUT: (request, reply) => {
      const summary = deviceOf(request).use(request.body, 'request body')
      request.log.info(summary, 'admin: data replaced')
      return ok(reply, summary)
    },
    DELETE: (request, reply) => {
      const summary = deviceOf(request).resetData()
      request.log.info(summary, 'admin: data reset to the start-up data')
      return ok(reply, summary)
    }
  }, { bodyLimit: DATA_BODY_LIMIT, schema: { hide: true, body: FixtureDataSchema } })
}
