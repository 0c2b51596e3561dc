import type { FastifyInstance, FastifyRequest, FastifyServerFactory, FastifyServerFactoryHandler } from 'fastify'
import { capConnections, type ServerLimits } from '../config/limits.js'
import { DevicePort } from '../device/device-port.js'
import { answerClientError } from './client-errors.js'
import { closeConnectionsWhenDone } from './closing.js'
import type { FastPath } from './fast-path.js'
import { answerServerEdgeCases } from './http-edges.js'
import { createListenerServer, roleOf, type ListenerRole, type ServerSettings } from './http-server.js'
import type { ServerOptions } from 'node:http'
import type { Socket } from 'node:net'
import type { TlsCredentials } from '../config/tls.js'

/** A listener to add: its device, what it serves, and its log. */
export type NewListener = Omit<ListenerRole, 'gate'>

/**
 * The listeners of one app: the app's own (a single mock-nvr's port, or a fleet's control address) and one per
 * device added later, each a server of its own that hands its requests to the one Fastify instance, marked with
 * the listener's role. They close with the app.
 */
export class AppListeners {
  readonly ownRole: ListenerRole
  readonly #fastPath: FastPath
  readonly #serverOptions: ServerOptions
  readonly #https: TlsCredentials | undefined
  readonly #ports = new Set<DevicePort>()
  #handler: FastifyServerFactoryHandler | undefined
  #settings: ServerSettings | undefined
  #limits: ServerLimits | undefined
  #app: FastifyInstance | undefined

  constructor (ownRole: ListenerRole, fastPath: FastPath, serverOptions: ServerOptions, https: TlsCredentials | undefined) {
    this.ownRole = ownRole
    this.#fastPath = fastPath
    this.#serverOptions = serverOptions
    this.#https = https
  }

  /** The role of the listener a request arrived on; the app's own for inject(). */
  readonly roleOfRequest = (request: FastifyRequest): ListenerRole => roleOf(request.raw, this.ownRole)

  /** Fastify's server factory: the app's own listener's server, made with the time-outs Fastify gives. */
  readonly serverFactory: FastifyServerFactory = (handler, options) => {
    this.#handler = handler
    this.#settings = { serverOptions: this.#serverOptions, https: this.#https, keepAliveTimeout: options.keepAliveTimeout as number, requestTimeout: options.requestTimeout as number, connectionTimeout: options.connectionTimeout as number }
    return createListenerServer(this.ownRole, { fastPath: this.#fastPath, fastify: handler }, this.#settings)
  }

  /** Caps and tracks the app's own server's connections, and closes every listener with the app; returns the app's own port. */
  register (app: FastifyInstance, limits: ServerLimits): DevicePort {
    this.#app = app
    this.#limits = limits
    const fastPath = this.#fastPath
    app.addHook('preClose', function leaveTheFastPath (done) {
      fastPath.stop()
      done()
    })
    capConnections(app.server, limits.maxConnections, app.log)
    closeConnectionsWhenDone(app, this.#serverOptions.headersTimeout || limits.requestTimeout, () => this.#connections())
    const own = new DevicePort(this.ownRole, app.server)
    this.#ports.add(own)
    // After the hook above, which lets the requests already sent arrive first.
    let closed: Promise<unknown> = Promise.resolve()
    app.addHook('preClose', (done) => {
      closed = Promise.all([...this.#ports].map(async each => await each.close()))
      done()
    })
    app.addHook('onClose', async function untilListenersClosed () { await closed })
    return own
  }

  // Every open connection of every listener, as each port tracks its own.
  * #connections (): Generator<Socket> {
    for (const port of this.#ports) yield * port.connections
  }

  /** A new listener of the same app, for this role; closed when the app closes. */
  add (role: NewListener): DevicePort {
    // One role object for the server and the port: the port sets its gate, the server reads it.
    const portRole: ListenerRole = { ...role, gate: null }
    // Made by Fastify's server factory, which ran when the app was made.
    const server = createListenerServer(portRole, { fastPath: this.#fastPath, fastify: this.#handler as FastifyServerFactoryHandler }, this.#settings as ServerSettings)
    server.on('clientError', answerClientError)
    answerServerEdgeCases(server)
    const app = this.#app as FastifyInstance
    capConnections(server, (this.#limits as ServerLimits).maxConnections, app.log)
    const added = new DevicePort(portRole, server)
    this.#ports.add(added)
    return added
  }
}
