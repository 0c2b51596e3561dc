import type { IncomingHttpHeaders } from 'node:http'
import { describeShape, shapeOf } from '../target-client/answer-shape.js'
import type { Observation } from '../errors/target-report.js'

export type { Observation }

/** The headers compared between the target and mock-nvr. */
export const HEADERS_THAT_MATTER = [
  'www-authenticate', 'allow', 'content-type',
  'access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers', 'access-control-expose-headers'
] as const

/** Reduces an answer (headers as Node gives them) to its observation; `redact` keeps the token out of what is quoted. */
export function observe (status: number, headers: IncomingHttpHeaders | Record<string, unknown>, body: Buffer | string, redact?: (text: string) => string): Observation {
  const kept: Record<string, string> = {}
  for (const name of HEADERS_THAT_MATTER) {
    const value = headers[name]
    // Never an array: Node gives each of these as one string (a repeated one joined, or its first kept), and mock-nvr sets each once.
    if (value !== undefined) kept[name] = String(value)
  }
  const shape = shapeOf(status, Buffer.from(body), redact)
  return {
    status,
    headers: kept,
    envelope: describeShape(shape),
    ...(shape.errorCode === undefined ? {} : { errorCode: shape.errorCode, errorMessage: shape.errorMessage })
  }
}

export function noAnswer (reason: string): Observation {
  return { status: null, headers: {}, envelope: `no answer: ${reason}` }
}

/** Whether the target and mock-nvr answered alike. */
export function sameObservation (target: Observation, mock: Observation): boolean {
  if (target.status !== mock.status || target.envelope !== mock.envelope) return false
  if (target.errorCode !== mock.errorCode || target.errorMessage !== mock.errorMessage) return false
  const names = new Set([...Object.keys(target.headers), ...Object.keys(mock.headers)])
  for (const name of names) if (target.headers[name] !== mock.headers[name]) return false
  return true
}
