import { createServer as createHttpServer, type IncomingMessage, type ServerOptions, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { FastifyServerFactory } from 'fastify'
import type { FastPath } from './fast-path.js'
import type { TlsCredentials } from '../config/tls.js'

/**
 * Fastify's server factory: the HTTP or HTTPS server Fastify would make, whose requests meet the fast
 * path first and Fastify's handler when the fast path leaves them.
 */
export function serverWithFastPath (fastPath: FastPath, serverOptions: ServerOptions, https: TlsCredentials | undefined): FastifyServerFactory {
  return function createServer (handler, options) {
    function handle (request: IncomingMessage, response: ServerResponse): void {
      if (!fastPath.answer(request, response)) handler(request, response)
    }
    const server = https === undefined ? createHttpServer(serverOptions, handle) : createHttpsServer({ ...https, ...serverOptions }, handle)
    // What Fastify sets on a server it makes itself.
    server.keepAliveTimeout = options.keepAliveTimeout as number
    server.requestTimeout = options.requestTimeout as number
    server.setTimeout(options.connectionTimeout as number)
    return server
  }
}
