import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import { ApiError, errorEnvelope, JSON_CONTENT_TYPE } from '../wire/errors.js'

const STATUS_BY_CODE: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408
}

/**
 * Answers what Node refuses before Fastify sees a request (headers too large, a request that never
 * finished, bytes that are not HTTP) in the same envelope, then closes the connection.
 */
export function answerClientError (error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const status = STATUS_BY_CODE[error.code ?? ''] ?? 400
  refuseOnSocket(socket, new ApiError(status, `The request was refused: ${STATUS_CODES[status] as string}.`))
}

/** Writes an error envelope straight to a socket, for answers given outside Fastify, then closes it. */
export function refuseOnSocket (socket: Duplex, error: ApiError): void {
  // As Node does: never write into an answer already under way on this connection.
  if (socket.writable && !answerUnderWay(socket)) {
    const { statusCode, message, headers } = error
    const body = errorEnvelope(statusCode, message)
    const extraHeaders = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')
    socket.write(
      `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode] as string}\r\n${extraHeaders}Content-Type: ${JSON_CONTENT_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
    )
  }
  socket.destroy()
}

// Node keeps the response being written on a connection as `_httpMessage`; its own clientError default checks it too.
function answerUnderWay (socket: Duplex): boolean {
  return (socket as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage?.headersSent === true
}
