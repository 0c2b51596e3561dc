import type { TSchema } from '@sinclair/typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify'
import { apiErrors } from '../wire/errors.js'
import { JSON_CONTENT_TYPE, successEnvelope } from '../contract/envelope.js'
import { READ_METHODS } from '../contract/paths.js'
import { refuseOtherMethods } from '../wire/method-not-allowed.js'
import { adminArea, requireBearer } from '../wire/area-guard.js'
import { compileWithTypeBox } from '../wire/typebox-validator.js'
import type { TokenPolicy } from '../wire/token-policy.js'
import { parseJsonBodies } from './json-body.js'

// The plumbing of the admin API: its routes, answers and body checks.

const hidden = { hide: true }

type Handler = (request: FastifyRequest, reply: FastifyReply) => FastifyReply | Promise<FastifyReply>
interface RouteOptions { bodyLimit?: number, schema?: { hide: boolean, body?: TSchema } }

/**
 * Makes the plugin an admin area: the admin token on every request, JSON bodies only (a text body would otherwise
 * reach validation as a string and read as "must be an object"), and a mistake in a body a 400 naming each JSON path,
 * a key that could change a prototype too.
 */
export function guardAdminArea (app: FastifyInstance, tokens: TokenPolicy): void {
  app.setValidatorCompiler(compileWithTypeBox(apiErrors.invalidBody))
  app.removeContentTypeParser('text/plain')
  parseJsonBodies(app, apiErrors.invalidBody, apiErrors.invalidJson)
  app.addHook('onRequest', requireBearer(adminArea(tokens)))
}

/** Registers the methods of one admin path; any other method there is a 405 with Allow. */
export function route (app: FastifyInstance, url: string, handlers: Partial<Record<HTTPMethods, Handler>>, options: RouteOptions = {}): void {
  const allowed = Object.keys(handlers)
  // Fastify answers HEAD wherever there is a GET.
  const allow = allowed.includes('GET') ? [...READ_METHODS, ...allowed.filter(method => method !== 'GET')] : allowed
  for (const [method, handler] of Object.entries(handlers)) {
    const withBody = method === 'PUT' || method === 'POST'
    app.route({
      method: method as HTTPMethods,
      url,
      schema: withBody && options.schema !== undefined ? options.schema : hidden,
      ...(withBody && options.bodyLimit !== undefined ? { bodyLimit: options.bodyLimit } : {}),
      handler: handler as never
    })
  }
  refuseOtherMethods(app, url, allow)
}

/** A success in the device's envelope. */
export function ok (reply: FastifyReply, content: unknown, status = 200): FastifyReply {
  return reply.code(status).type(JSON_CONTENT_TYPE).send(successEnvelope(content, status))
}
