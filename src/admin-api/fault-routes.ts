import type { FastifyInstance } from 'fastify'
import { FaultSpecSchema } from '../control/faults/fault-spec.js'
import { apiErrors } from '../wire/errors.js'
import type { DeviceOf } from './device-of.js'
import { ok, route } from './routing.js'

/** /faults and /faults/{id}: the faults in force, one injected (a bad spec's InvalidFaultError is the 400), cleared. */
export function registerFaultRoutes (app: FastifyInstance, deviceOf: DeviceOf): void {
  route(app, '/faults', {
    GET: (request, reply) => ok(reply, deviceOf(request).faults()),
    POST: (request, reply) => {
      const fault = deviceOf(request).injectFault(request.body)
      request.log.info({ fault }, `admin: ${fault.id} injected`)
      return ok(reply, fault, 201)
    },
    DELETE: (request, reply) => {
      deviceOf(request).clearFaults()
      request.log.info('admin: every fault cleared')
      return ok(reply, null)
    }
  }, { schema: { hide: true, body: FaultSpecSchema } })

  route(app, '/faults/:id', {
    DELETE: (request, reply) => {
      const { id } = request.params as { id: string }
      if (!deviceOf(request).clearFaults(id)) throw apiErrors.faultNotFound(id)
      request.log.info(`admin: ${id} cleared`)
      return ok(reply, null)
    }
  })
}
