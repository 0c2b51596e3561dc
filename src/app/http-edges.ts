import { METHODS, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { refuseOnSocket } from './client-errors.js'
import { apiErrors, type ApiError } from '../wire/errors.js'
import { READ_METHODS } from '../contract/paths.js'

/**
 * Requests at the edges of HTTP, answered like any other. Call it before any route is registered:
 * every method Node parses must reach the routes, so the 401-first and 405 rules hold for PROPFIND too.
 */
export function answerHttpEdgeCases (app: FastifyInstance): void {
  for (const method of METHODS) {
    // CONNECT never reaches Fastify: Node hands it to the 'connect' listener below.
    if (method !== 'CONNECT' && !app.supportedMethods.includes(method)) app.addHttpMethod(method)
  }
  answerServerEdgeCases(app.server)
}

/** What a server of the app answers before any request reaches Fastify: expectations and tunnels. */
export function answerServerEdgeCases (server: Server): void {
  server.on('checkExpectation', ignoreExpectation)
  server.on('connect', refuseTunnel)
}

// HTTP allows ignoring an expectation the server does not know; Node would answer 417 with no body.
function ignoreExpectation (this: Server, request: IncomingMessage, response: ServerResponse): void {
  this.emit('request', request, response)
}

// No tunnel is ever opened: a CONNECT is refused in the envelope instead of having its connection dropped.
function refuseTunnel (request: IncomingMessage, socket: Duplex): void {
  refuseOnSocket(socket, apiErrors.methodNotAllowed(request.method as string, READ_METHODS))
}

/**
 * Checks every request for what HTTP itself gets wrong, from the first onRequest hook: returns the refusal
 * of an HTTP/1.1 request without Host (RFC 9112 §3.2; Node's own has no body). A request that comes with a
 * body gets Connection: close: only admin calls read one, and a body nobody reads is then not drained.
 */
export function refuseAtTheEdge (request: FastifyRequest, reply: FastifyReply): ApiError | undefined {
  const { headers } = request
  if (headers['transfer-encoding'] !== undefined || (headers['content-length'] ?? '0') !== '0') reply.header('connection', 'close')
  const { httpVersionMajor, httpVersionMinor } = request.raw
  return httpVersionMajor === 1 && httpVersionMinor === 1 && headers.host === undefined ? apiErrors.missingHost() : undefined
}
