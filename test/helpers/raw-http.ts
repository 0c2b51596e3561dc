import { connect, type Socket } from 'node:net'
import type { Answer } from './answer-invariants.js'

/** Everything the server wrote before the connection closed, and how it closed. */
export interface Exchange {
  received: Buffer
  /** The socket error that ended it (a reset), if any. */
  error?: string
}

/** Writes raw bytes, half-closes, and collects the answer until the server closes the connection. */
export function exchange (port: number, request: Buffer | string, { end = true } = {}): Promise<Exchange> {
  return new Promise(resolve => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    let error: string | undefined
    socket.on('data', chunk => chunks.push(chunk))
    socket.on('error', failure => { error = (failure as NodeJS.ErrnoException).code ?? failure.message })
    socket.on('close', () => resolve({ received: Buffer.concat(chunks), ...(error === undefined ? {} : { error }) }))
    if (end) socket.end(request)
    else socket.write(request)
  })
}

/** Opens a connection and resolves once it is established. */
export function openSocket (port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket))
    socket.once('error', reject)
  })
}

/** Collects what arrives on a socket until the server closes it. */
export function untilClosed (socket: Socket): Promise<string> {
  return new Promise(resolve => {
    let text = ''
    socket.setEncoding('latin1')
    socket.on('data', chunk => { text += chunk })
    socket.on('error', () => {})
    socket.on('close', () => resolve(text))
  })
}

/** Splits HTTP/1.1 answers, skipping 100 Continue; the first may answer a HEAD request when `head` is set. */
export function parseAnswers (received: Buffer, head = false): Answer[] {
  const answers: Answer[] = []
  let rest = received
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n')
    if (end === -1) throw new Error(`an answer is cut short: ${rest.toString('latin1').slice(0, 200)}`)
    const [statusLine = '', ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n')
    const match = /^HTTP\/1\.[01] (\d{3}) /.exec(statusLine)
    if (match === null) throw new Error(`not an HTTP answer: ${statusLine.slice(0, 200)}`)
    const status = Number(match[1])
    const headers: Record<string, string> = {}
    for (const line of lines) {
      const colon = line.indexOf(':')
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
    }
    rest = rest.subarray(end + 4)
    if (status === 100) continue
    // Every answer to HEAD is headers alone, a refusal written before Fastify saw the request too.
    const withoutBody = head && answers.length === 0
    const { body, after } = withoutBody ? { body: Buffer.alloc(0), after: rest } : splitBody(rest, headers)
    answers.push({ status, headers, body: body.toString('utf8') })
    rest = after
  }
  return answers
}

function splitBody (rest: Buffer, headers: Record<string, string>): { body: Buffer, after: Buffer } {
  // Every answer of this server states its length; one that does not takes the rest, and fails the checks.
  const length = Number(headers['content-length'] ?? rest.length)
  return { body: rest.subarray(0, length), after: rest.subarray(length) }
}
