import type { FastifyInstance } from 'fastify'
import { apiErrors } from './errors.js'

/**
 * Registers every other method on a path as a 405 with Allow. Fastify answers 404 to an unknown method
 * on a known path (by design); the contract wants 405. Refused in onRequest, before any body is read.
 */
export function refuseOtherMethods (app: FastifyInstance, url: string, allowed: readonly string[]): void {
  app.route({
    method: app.supportedMethods.filter(method => !allowed.includes(method)),
    url,
    schema: { hide: true },
    onRequest: function refuseMethod (request, _reply, done) {
      done(apiErrors.methodNotAllowed(request.method, allowed))
    },
    /* c8 ignore next: never runs, onRequest refuses every request of this route */
    handler: function unreachable () {}
  })
}

/** Answers 404 for every method on the paths of a plugin that no route has, so the plugin's hooks (its bearer check) run for them too. */
export function refuseUnknownPaths (app: FastifyInstance): void {
  for (const url of ['/', '/*']) {
    app.all(url, { schema: { hide: true } }, function unknownPath () {
      throw apiErrors.routeNotFound()
    })
  }
}
