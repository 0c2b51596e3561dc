import type { Socket } from 'node:net'
import { Server as TlsServer } from 'node:tls'
import { closeAfterAnswer } from '../app/closing.js'
import type { DeviceListener } from '../app/device-listener.js'
import type { HealthListener } from '../health/device-health.js'
import { errorEnvelope, JSON_CONTENT_TYPE } from '../contract/envelope.js'

/**
 * A device's listener as its health steers it. Going down closes the port at once, as a device does: answers
 * under way finish and their connections close after them, every other connection closes now; coming back
 * listens on the same port. (Shutting down, by contrast, waits for every answer: DeviceListener.close.)
 */
export function healthPort (listener: DeviceListener): HealthListener {
  const { server, device } = listener
  const sockets = new Set<Socket>()
  server.on(server instanceof TlsServer ? 'secureConnection' : 'connection', function trackConnection (socket: Socket) {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  return {
    get port () {
      return listener.port
    },
    stop: async () => {
      server.close()
      for (const socket of sockets) if (!closeAfterAnswer(socket)) socket.destroy()
    },
    resume: async () => {
      await listener.listen()
    },
    setGate: gate => {
      device.gate = gate
    },
    refuse: (request, response, error) => {
      const body = errorEnvelope(error)
      const headers = [...device.cors.headersFor(request.headers.origin), 'content-type', JSON_CONTENT_TYPE, 'content-length', String(Buffer.byteLength(body))]
      for (const [name, value] of Object.entries(error.headers)) headers.push(name, value)
      response.writeHead(error.statusCode, headers)
      response.end(request.method === 'HEAD' ? undefined : body)
      device.control.recorder.refusedBeforeRouting({ method: request.method as string, url: request.url as string, params: {} }, error.statusCode, 0)
    }
  }
}
