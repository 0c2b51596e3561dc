import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { setImmediate } from 'node:timers/promises'
import { Server as TlsServer } from 'node:tls'
import { closeAfterAnswer } from '../wire/close-after-answer.js'
import { errorAnswer } from '../contract/envelope.js'
import { readOperation } from '../contract/paths.js'
import type { ApiError } from '../wire/errors.js'
import type { RequestGate } from '../wire/request-gate.js'
import type { HealthListener } from '../health/device-health.js'
import type { CorsPolicy } from '../wire/cors.js'
import type { RequestRecorder } from '../control/request-recorder.js'

const PORT = Symbol('the port of a server')
const NO_SOCKETS: readonly Socket[] = []

/** What a port needs of the device it serves: to refuse a request as the device answers. */
export interface PortDevice {
  readonly cors: CorsPolicy
  readonly recorder: RequestRecorder
}

/** What a port serves, as the app's listener roles give it. */
export interface PortRole {
  readonly device: PortDevice
  /**
   * Takes the device's requests before anything else while its health needs it; null lets every request through.
   * A port's own: a control address, which is no device's port, never has one.
   */
  gate: RequestGate | null
}

/**
 * One listener of the shared app, on a port of its own: a device's port, or a control address. It listens and
 * closes on its own, so a device can go offline and come back on the same port while the others serve on.
 * Closing lets requests in flight finish; going down (health) ends every idle connection at once.
 */
export class DevicePort implements HealthListener {
  readonly role: PortRole
  readonly server: Server
  #host = '127.0.0.1'
  #port = 0
  // Made with the first connection: a port nobody connects to holds none.
  #sockets: Set<Socket> | undefined

  // One listener for every port's server, which finds its port on the server.
  static readonly #track = function trackSocket (this: Server & { [PORT]: DevicePort }, socket: Socket): void {
    const sockets = this[PORT].#sockets ??= new Set()
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  }

  constructor (role: PortRole, server: Server) {
    this.role = role
    this.server = server
    ;(server as Server & { [PORT]: DevicePort })[PORT] = this
    server.on(server instanceof TlsServer ? 'secureConnection' : 'connection', DevicePort.#track)
  }

  /** Its open connections. */
  get connections (): Iterable<Socket> {
    return this.#sockets ?? NO_SOCKETS
  }

  get listening (): boolean {
    return this.server.listening
  }

  /** The port listened on, or last listened on; 0 before the first listen. */
  get port (): number {
    return this.#port
  }

  /** Listens on this port and host (by default the last ones, to come back where it was); resolves with the port. */
  async listen (port = this.#port, host = this.#host): Promise<number> {
    const server = this.server
    await new Promise<void>((resolve, reject) => {
      const failed = (error: Error) => {
        server.off('listening', listening)
        reject(error)
      }
      const listening = () => {
        server.off('error', failed)
        resolve()
      }
      server.once('error', failed)
      server.once('listening', listening)
      server.listen({ port, host })
    })
    this.#host = host
    this.#port = (server.address() as AddressInfo).port
    return this.#port
  }

  /** Stops accepting connections and closes the idle ones; resolves once the requests in flight are answered. */
  async close (): Promise<void> {
    if (!this.server.listening) return
    await new Promise<void>(resolve => this.server.close(() => resolve()))
  }

  /**
   * Goes down as a device does: the port refuses connections from now on, answers under way finish and their
   * connections close after them, and every other connection ends now. Resolves once those have ended and the
   * event loop has turned, so that a client in this process has seen its kept-alive connection end.
   */
  async stop (): Promise<void> {
    this.server.close()
    const ended: Array<Promise<void>> = []
    for (const socket of this.#sockets ?? []) {
      if (closeAfterAnswer(socket)) continue
      ended.push(new Promise(resolve => socket.once('close', () => resolve())))
      socket.destroy()
    }
    await Promise.all(ended)
    await setImmediate()
  }

  /** Listens on the same port again; rejects when it cannot (the port was taken meanwhile). */
  async resume (): Promise<void> {
    await this.listen()
  }

  setGate (gate: RequestGate | null): void {
    this.role.gate = gate
  }

  /** Answers a request with this refusal as the device answers: its CORS headers, the envelope, the journal. */
  refuse (request: IncomingMessage, response: ServerResponse, error: ApiError): void {
    const { device } = this.role
    const { status, headers, body } = errorAnswer(error, device.cors.headersFor(request.headers.origin))
    headers.push('content-length', String(Buffer.byteLength(body)))
    response.writeHead(status, headers)
    response.end(request.method === 'HEAD' ? undefined : body)
    const url = request.url as string
    device.recorder.refusedBeforeRouting({ method: request.method as string, url, params: paramsOf(url) }, error.statusCode, 0)
  }
}

// The operation's parameters as the router would give them, so the journal and the metrics name the camera and line.
function paramsOf (url: string): Record<string, string> {
  return readOperation(url)?.params ?? {}
}
