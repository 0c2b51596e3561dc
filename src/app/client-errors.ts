import { METHODS, STATUS_CODES, type IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { apiErrors, type ApiError } from '../wire/errors.js'
import { errorAnswer } from '../contract/envelope.js'

const STATUS_BY_CODE: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408
}

// The start of a request line: a line that begins with a method Node knows, then a space.
const REQUEST_LINE_START = new RegExp(`(?:^|\\n)(${METHODS.join('|')}) `, 'g')

/** A refusal of Node's HTTP parser: the bytes it was reading and how far it got, when it was reading any. */
type ParserError = NodeJS.ErrnoException & { rawPacket?: unknown, bytesParsed?: number }

/**
 * Answers what Node refuses before Fastify sees a request (headers too large, a request that never
 * finished, bytes that are not HTTP) in the same envelope, then closes the connection. A refused HEAD
 * gets the headers alone, as every answer to HEAD does.
 */
export function answerClientError (error: ParserError, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const status = STATUS_BY_CODE[error.code ?? ''] ?? 400
  const head = refusedMethod(error, socket) === 'HEAD'
  refuseOnSocket(socket, apiErrors.clientError(status), head)
}

/**
 * The method of the request Node refused, as far as it can be known: the parser's once the request's
 * headers were read (a body cut short or badly chunked), else the method of the last request line in the
 * bytes read up to the refusal. Undefined when those bytes hold none: a request line that came in an
 * earlier packet than the refusal, or headers that never finished.
 */
export function refusedMethod (error: ParserError, socket: Duplex): string | undefined {
  const incoming = (socket as { parser?: { incoming?: IncomingMessage | null } | null }).parser?.incoming
  if (incoming !== null && incoming !== undefined && !incoming.complete) return incoming.method
  const packet = error.rawPacket
  if (!Buffer.isBuffer(packet)) return undefined
  // As far as the parser read; were that not known, toString would read to the end.
  const read = packet.toString('latin1', 0, error.bytesParsed)
  let method: string | undefined
  for (const match of read.matchAll(REQUEST_LINE_START)) method = match[1]
  return method
}

/**
 * Writes an error envelope straight to a socket, for answers given outside Fastify, then closes it.
 * The answer to a HEAD request has the headers, Content-Length included, and no body (RFC 9110 §9.3.2).
 */
export function refuseOnSocket (socket: Duplex, error: ApiError, head = false): void {
  // As Node does: never write into an answer already under way on this connection.
  if (socket.writable && !answerUnderWay(socket)) {
    const { status, headers, body } = errorAnswer(error)
    let lines = ''
    for (let index = 0; index < headers.length; index += 2) lines += `${headers[index] as string}: ${headers[index + 1] as string}\r\n`
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] as string}\r\n${lines}` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`
    )
  }
  socket.destroy()
}

// Node keeps the response being written on a connection as `_httpMessage`; its own clientError default checks it too.
function answerUnderWay (socket: Duplex): boolean {
  return (socket as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage?.headersSent === true
}
