import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import { errorEnvelope } from './errors.js'

const STATUS_BY_CODE: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408
}

/**
 * Answers what Node refuses before Fastify sees a request (headers too large, a request that never
 * finished, bytes that are not HTTP) in the same envelope, then closes the connection.
 */
export function answerClientError (error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const status = STATUS_BY_CODE[error.code ?? ''] ?? 400
  const reason = STATUS_CODES[status] as string
  if (socket.writable) {
    const body = errorEnvelope(status, `The request was refused: ${reason}.`)
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
    )
  }
  socket.destroy()
}
