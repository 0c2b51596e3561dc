import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ListenerRole } from './http-server.js'
import type { DeviceContext } from '../device/device-context.js'

/**
 * One device's own server, served by the shared app: it listens and closes on its own, so a device can go
 * offline and come back on the same port while the others serve on. Closing lets requests in flight finish.
 */
export class DeviceListener {
  readonly role: ListenerRole
  readonly server: Server
  #host = '127.0.0.1'
  #port = 0

  constructor (role: ListenerRole, server: Server) {
    this.role = role
    this.server = server
  }

  get device (): DeviceContext {
    return this.role.device
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
}
