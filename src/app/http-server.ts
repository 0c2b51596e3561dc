import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { FastifyServerFactoryHandler } from 'fastify'
import type { FastPath } from './fast-path.js'
import type { TlsCredentials } from '../config/tls.js'
import type { FastifyBaseLogger } from 'fastify'
import type { PortRole } from '../device/device-port.js'
import type { Device } from '../device/device.js'
import { ADMIN_PREFIX, isUnder } from '../contract/paths.js'

/** What a listener serves: a device's API (and, for a single mock-nvr, the admin API beside it), or the admin API alone. */
export interface ListenerRole extends PortRole {
  /** The device the listener's requests act on; a fleet's control address names its first device, for its CORS policy only. */
  readonly device: Device
  /** The device's own paths: /nvr/v1, /healthz, the document and the docs. */
  readonly api: boolean
  /** The admin API and its dashboard under /__admin. */
  readonly admin: boolean
  /** The log of the requests on this listener, when not the app's: a fleet device's, whose lines name it. */
  readonly log?: FastifyBaseLogger
}

/** How every server of an app is made: Node's options, TLS, and the time-outs Fastify sets on a server it makes. */
export interface ServerSettings {
  serverOptions: ServerOptions
  https: TlsCredentials | undefined
  keepAliveTimeout: number
  requestTimeout: number
  connectionTimeout: number
}

const ROLE = Symbol('listener role')
type MarkedRequest = IncomingMessage & { [ROLE]?: ListenerRole }

/** The role of the listener a request arrived on; the fallback for a request that came through no listener (inject()). */
export function roleOf (request: IncomingMessage, fallback: ListenerRole): ListenerRole {
  return (request as MarkedRequest)[ROLE] ?? fallback
}

const SERVED_ROLE = Symbol('the role a server serves')
type RoleServer = Server & { [SERVED_ROLE]: ListenerRole }

/** How an app's servers hand a request on: to the fast path, then to Fastify's handler. */
export interface RequestRoute {
  fastPath: FastPath
  fastify: FastifyServerFactoryHandler
}

// One request handler for every server of an app, which reads the server's role: a device's server holds no
// closures of its own, so 10,000 of them cost their sockets and their state, not 10,000 copies of this.
const handlers = new WeakMap<FastPath, (this: Server, request: IncomingMessage, response: ServerResponse) => void>()

function handlerOf ({ fastPath, fastify }: RequestRoute): (this: Server, request: IncomingMessage, response: ServerResponse) => void {
  let handler = handlers.get(fastPath)
  if (handler !== undefined) return handler
  function serve (role: ListenerRole, request: IncomingMessage, response: ServerResponse): void {
    if (role.api && fastPath.answer(role.device, request, response)) return
    (request as MarkedRequest)[ROLE] = role
    fastify(request, response)
  }
  handler = function handle (this: Server, request: IncomingMessage, response: ServerResponse): void {
    const role = (this as RoleServer)[SERVED_ROLE]
    const { gate } = role
    // The admin API is the mock's, not the device's: a single mock-nvr's, which shares the port, is never held.
    if (gate !== null && !(role.admin && isUnder(request.url as string, ADMIN_PREFIX)) && gate(request, response, () => serve(role, request, response))) return
    serve(role, request, response)
  }
  handlers.set(fastPath, handler)
  return handler
}

/**
 * A server of the app for one listener: each request meets the port's gate, then the fast path, then
 * Fastify's handler, marked with the listener's role so every hook finds its device.
 */
export function createListenerServer (role: ListenerRole, route: RequestRoute, settings: ServerSettings): Server {
  const { serverOptions, https } = settings
  const handle = handlerOf(route)
  const server = https === undefined ? createHttpServer(serverOptions, handle) : createHttpsServer({ ...https, ...serverOptions }, handle)
  ;(server as RoleServer)[SERVED_ROLE] = role
  // What Fastify sets on a server it makes itself.
  server.keepAliveTimeout = settings.keepAliveTimeout
  server.requestTimeout = settings.requestTimeout
  server.setTimeout(settings.connectionTimeout)
  return server
}
