import type { Server } from 'node:net'
import type { Socket } from 'node:net'
import { Server as TlsServer } from 'node:tls'
import { closeAfterAnswer } from '../app/closing.js'
import type { HealthListener } from '../health/device-health.js'

/**
 * A device's port as its health steers it: closed as a device going down closes it (answers under way finish,
 * then their connections close; every other connection closes at once), and opened again on the same port.
 */
export function portListener (server: Server, host: string): HealthListener {
  const sockets = new Set<Socket>()
  server.on(server instanceof TlsServer ? 'secureConnection' : 'connection', function trackConnection (socket: Socket) {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  let port = 0
  return {
    get port () {
      return port
    },
    stop: async () => {
      port = (server.address() as { port: number }).port
      server.close()
      for (const socket of sockets) if (!closeAfterAnswer(socket)) socket.destroy()
    },
    resume: () => new Promise((resolve, reject) => {
      const failed = (error: Error): void => reject(error)
      server.once('error', failed)
      server.listen({ port, host }, () => {
        server.off('error', failed)
        resolve()
      })
    })
  }
}
