import type { IncomingHttpHeaders } from 'node:http'
import { clearTimeout, setTimeout } from 'node:timers'
import { Agent, type Dispatcher } from 'undici'
import { formatBytes } from '../util/byte-size.js'
import { ACCEPTED_ENCODINGS, decodeBody, decodedHeaders } from './body-decoding.js'
import type { TargetConnection } from './target-connection.js'
import { describeFailure } from './request-failure.js'
import { BodyDecodingError, NoAnswerError } from '../errors/errors.js'

export { describeFailure, unreachableError } from './request-failure.js'
export { NoAnswerError }

/** One request to the target: a path under its base URL, already percent-encoded. */
export interface TargetRequest {
  method: string
  path: string
  headers?: Record<string, string>
  /** Sent as the request body (the proxy forwards one). */
  body?: Buffer
}

/**
 * What the target answered, read whole and decoded: `body` is what the sender meant, whatever
 * Content-Encoding carried it; `headers` no longer hold Content-Encoding or Content-Length then.
 */
export interface TargetAnswer {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
}

/**
 * Sends requests to one target with undici, never following a redirect, with a time limit and a size limit
 * on every answer (on the bytes received and again on the decoded body). Connections are kept alive between
 * requests of one client; close() ends them.
 */
export class TargetClient {
  readonly #connection: TargetConnection
  readonly #basePath: string
  readonly #agent: Agent

  constructor (connection: TargetConnection) {
    this.#connection = connection
    this.#basePath = connection.base.pathname === '/' ? '' : connection.base.pathname
    const https = connection.base.protocol === 'https:'
    this.#agent = new Agent({
      // This client's own timer limits each request as a whole; undici's would only say less.
      headersTimeout: 0,
      bodyTimeout: 0,
      connectTimeout: connection.timeoutMs,
      connect: https ? { rejectUnauthorized: !connection.insecure, ...(connection.ca === undefined ? {} : { ca: connection.ca }) } : {}
    })
  }

  /** The request with the target's token in Authorization, unless the request brings its own headers for it. */
  authorized (request: TargetRequest): TargetRequest {
    return { ...request, headers: { authorization: `Bearer ${this.#connection.token}`, ...request.headers } }
  }

  async send ({ method, path, headers = {}, body }: TargetRequest): Promise<TargetAnswer> {
    const { base, timeoutMs, maxBodyBytes, signal } = this.#connection
    if (signal?.aborted === true) throw new NoAnswerError('stopped before the request was sent')
    const controller = new AbortController()
    let stopped: NoAnswerError | undefined
    const stop = (reason: NoAnswerError): void => {
      stopped ??= reason
      controller.abort()
    }
    const timer = setTimeout(() => stop(new NoAnswerError(`no answer within ${timeoutMs} ms`)), timeoutMs)
    const onAbort = (): void => stop(new NoAnswerError('stopped: the run took too long or was interrupted'))
    signal?.addEventListener('abort', onAbort)
    try {
      const response = await this.#agent.request({
        origin: base.origin,
        // As given: no URL parser in between that would resolve dot segments or re-encode.
        path: `${this.#basePath}${path}`,
        method: method as Dispatcher.HttpMethod,
        headers: { 'accept-encoding': ACCEPTED_ENCODINGS, ...headers },
        ...(body === undefined ? {} : { body }),
        signal: controller.signal
      })
      const raw = await readBody(response, maxBodyBytes)
      const answerHeaders = { ...response.headers } as IncomingHttpHeaders
      const encoding = answerHeaders['content-encoding']
      if (encoding === undefined) return { status: response.statusCode, headers: answerHeaders, body: raw }
      const decoded = await decodeBody(raw, encoding, maxBodyBytes)
      return { status: response.statusCode, headers: decodedHeaders(answerHeaders), body: decoded }
    } catch (error) {
      if (stopped !== undefined) throw stopped
      if (error instanceof NoAnswerError) throw error
      if (error instanceof BodyDecodingError) throw error.tooLarge ? tooLarge(maxBodyBytes, error.message) : new NoAnswerError(`the answer cannot be read: ${error.message}`)
      throw describeFailure(error as Error, base.protocol === 'https:')
    } finally {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
    }
  }

  /** Ends every connection to the target now. */
  async close (): Promise<void> {
    await this.#agent.destroy()
  }
}

/** The body's bytes as received, refused past maxBodyBytes (on its declared length, unread, when it says). */
async function readBody (response: Dispatcher.ResponseData, maxBodyBytes: number): Promise<Buffer> {
  const declared = Number(response.headers['content-length'])
  if (declared > maxBodyBytes) {
    response.body.destroy()
    throw tooLarge(maxBodyBytes)
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxBodyBytes) {
      response.body.destroy()
      throw tooLarge(maxBodyBytes)
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

function tooLarge (maxBodyBytes: number, how?: string): NoAnswerError {
  return new NoAnswerError(`the answer is larger than ${formatBytes(maxBodyBytes)}${how === undefined ? '' : ` ${how}`}, the most read`)
}
