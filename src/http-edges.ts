import { METHODS, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { refuseOnSocket } from './client-errors.js'
import { apiErrors } from './errors.js'

const TUNNEL_ALLOWED_METHODS = ['GET', 'HEAD']

/**
 * Requests at the edges of HTTP, answered like any other. Call it before any route is registered:
 * every method Node parses must reach the routes, so the 401-first and 405 rules hold for PROPFIND too.
 */
export function answerHttpEdgeCases (app: FastifyInstance): void {
  for (const method of METHODS) {
    // CONNECT never reaches Fastify: Node hands it to the 'connect' listener below.
    if (method !== 'CONNECT' && !app.supportedMethods.includes(method)) app.addHttpMethod(method)
  }
  // After CORS and the bearer check (onRequest), as for a malformed URL: auth comes first under /nvr/v1.
  app.addHook('preValidation', requireHost)
  app.addHook('onSend', closeWhenBodyUnread)
  // HTTP allows ignoring an expectation the server does not know; Node would answer 417 with no body.
  app.server.on('checkExpectation', function ignoreExpectation (request: IncomingMessage, response: ServerResponse) {
    app.server.emit('request', request, response)
  })
  // No tunnel is ever opened: a CONNECT is refused in the envelope instead of having its connection dropped.
  app.server.on('connect', function refuseTunnel (request: IncomingMessage, socket: Duplex) {
    refuseOnSocket(socket, apiErrors.methodNotAllowed(request.method as string, TUNNEL_ALLOWED_METHODS))
  })
}

// HTTP/1.1 requires Host (RFC 9112 §3.2); Node's own refusal of a request without it has no body.
function requireHost (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const { httpVersionMajor, httpVersionMinor } = request.raw
  const missing = httpVersionMajor === 1 && httpVersionMinor === 1 && request.headers.host === undefined
  done(missing ? apiErrors.missingHost() : undefined)
}

// A body still arriving when the answer goes out was not wanted: close the connection rather than read it all.
function closeWhenBodyUnread (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void {
  const { headers } = request
  const declaresBody = headers['transfer-encoding'] !== undefined || (headers['content-length'] ?? '0') !== '0'
  if (declaresBody && !request.raw.complete) reply.header('connection', 'close')
  done(null, payload)
}
