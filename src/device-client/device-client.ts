import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { clearTimeout, setTimeout } from 'node:timers'
import { DeviceLinkError, type DeviceConnection } from './device-target.js'

/** One request to the device: a path under the target's base, already percent-encoded. */
export interface DeviceRequest {
  method: string
  path: string
  headers?: Record<string, string>
  /** Sent as the request body (the proxy forwards one). */
  body?: Buffer
}

/** What the device answered, read whole. */
export interface DeviceAnswer {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
}

/** A request that got no usable answer; `reason` is one line, for a report. */
export class NoAnswerError extends Error {
  /** True when the device cannot be reached at all (refused, unknown host, untrusted certificate): nothing else will work either. */
  readonly unreachable: boolean

  constructor (reason: string, unreachable = false) {
    super(reason)
    this.name = 'NoAnswerError'
    this.unreachable = unreachable
  }
}

const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ENOTFOUND: 'the host name is not known',
  EAI_AGAIN: 'the host name could not be looked up',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached'
}

const CERTIFICATE_ADVICE = 'pass --ca FILE with its certificate, or --insecure to skip the check'

/**
 * Sends requests to one device over node:http(s), never following a redirect, with a time limit and a
 * size limit on every answer. Each request has its own connection, so nothing stays open after a run.
 */
export class DeviceClient {
  readonly #connection: DeviceConnection
  readonly #basePath: string

  constructor (connection: DeviceConnection) {
    this.#connection = connection
    this.#basePath = connection.base.pathname === '/' ? '' : connection.base.pathname
  }

  /** The request with the device's token in Authorization, unless the request brings its own headers for it. */
  authorized (request: DeviceRequest): DeviceRequest {
    return { ...request, headers: { authorization: `Bearer ${this.#connection.token}`, ...request.headers } }
  }

  send ({ method, path, headers = {}, body }: DeviceRequest): Promise<DeviceAnswer> {
    const { base, timeoutMs, maxBodyBytes, signal, ca, insecure } = this.#connection
    const https = base.protocol === 'https:'
    return new Promise<DeviceAnswer>((resolve, reject) => {
      if (signal?.aborted === true) {
        reject(new NoAnswerError('stopped before the request was sent'))
        return
      }
      const send = https ? httpsRequest : httpRequest
      // Host, port (the scheme's default when the URL has none) and protocol come from the URL itself.
      const request = send(base, {
        method,
        path: `${this.#basePath}${path}`,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-length': String(body.length) }) },
        agent: false,
        ...(https ? { rejectUnauthorized: !insecure, ...(ca === undefined ? {} : { ca }) } : {})
      })
      let settled = false
      const finish = (error: NoAnswerError | undefined, answer?: DeviceAnswer): void => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        if (error !== undefined) {
          request.destroy()
          reject(error)
        } else {
          resolve(answer as DeviceAnswer)
        }
      }
      const timer = setTimeout(() => finish(new NoAnswerError(`no answer within ${timeoutMs} ms`)), timeoutMs)
      const onAbort = (): void => finish(new NoAnswerError('stopped: the run took too long or was interrupted'))
      signal?.addEventListener('abort', onAbort)
      request.on('error', error => finish(describeFailure(error, https)))
      request.on('response', (response: IncomingMessage) => {
        const declared = Number(response.headers['content-length'])
        if (declared > maxBodyBytes) {
          finish(tooLarge(maxBodyBytes))
          return
        }
        const chunks: Buffer[] = []
        let size = 0
        response.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > maxBodyBytes) finish(tooLarge(maxBodyBytes))
          else chunks.push(chunk)
        })
        response.on('error', error => finish(describeFailure(error, https)))
        response.on('end', () => finish(undefined, { status: response.statusCode as number, headers: response.headers, body: Buffer.concat(chunks) }))
      })
      request.end(body)
    })
  }
}

function tooLarge (maxBodyBytes: number): NoAnswerError {
  return new NoAnswerError(`the answer is larger than ${maxBodyBytes} bytes, the most read`)
}

/** A failed request in one line; Node's messages hold no header, so no token can leak through them. */
export function describeFailure (error: Error, https: boolean): NoAnswerError {
  const code = (error as NodeJS.ErrnoException).code ?? ''
  const unreachable = UNREACHABLE[code]
  if (unreachable !== undefined) return new NoAnswerError(`cannot connect to the device: ${unreachable} (${code})`, true)
  if (https && isCertificateError(code)) return new NoAnswerError(`the device's certificate is not trusted (${code}): ${CERTIFICATE_ADVICE}`, true)
  if (code === 'ECONNRESET' || error.message === 'socket hang up') return new NoAnswerError('the device closed the connection before answering in full')
  if (code === 'EPROTO' || code.startsWith('ERR_SSL')) return new NoAnswerError(`the TLS handshake failed (${code}): is the target http:// rather than https://?`, true)
  if (code.startsWith('HPE_')) return new NoAnswerError(`the answer is not valid HTTP (${code}): is the target https:// rather than http://?`)
  return new NoAnswerError(`the request failed (${code === '' ? error.message : code})`)
}

function isCertificateError (code: string): boolean {
  return code.includes('CERT') || code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' || code === 'ERR_TLS_CERT_ALTNAME_INVALID'
}

/** The one-line error a whole run ends with when the device cannot be reached. */
export function unreachableError (error: NoAnswerError, target: string): DeviceLinkError {
  return new DeviceLinkError(`${target}: ${error.message}`)
}
