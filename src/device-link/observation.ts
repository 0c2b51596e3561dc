import type { IncomingHttpHeaders } from 'node:http'

/** What an answer to an unspecified case looks like, reduced to what a client acts on. */
export interface Observation {
  /** The status, or null when no answer came. */
  status: number | null
  /** The headers that matter, by lower-case name; only those sent. */
  headers: Record<string, string>
  /**
   * What the body is: 'error envelope' (success false, httpCode equal to the status), 'error envelope,
   * httpCode N' (another code), 'success envelope', 'other JSON', 'not JSON', 'empty', or 'no answer: why'.
   */
  envelope: string
}

/** The headers compared between the device and mock-nvr. */
export const HEADERS_THAT_MATTER = [
  'www-authenticate', 'allow', 'content-type',
  'access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers', 'access-control-expose-headers'
] as const

/** Reduces an answer (headers as Node gives them) to its observation. */
export function observe (status: number, headers: IncomingHttpHeaders | Record<string, unknown>, body: Buffer | string): Observation {
  const kept: Record<string, string> = {}
  for (const name of HEADERS_THAT_MATTER) {
    const value = headers[name]
    // Never an array: Node gives each of these as one string (a repeated one joined, or its first kept), and mock-nvr sets each once.
    if (value !== undefined) kept[name] = String(value)
  }
  return { status, headers: kept, envelope: describeBody(status, body) }
}

export function noAnswer (reason: string): Observation {
  return { status: null, headers: {}, envelope: `no answer: ${reason}` }
}

function describeBody (status: number, body: Buffer | string): string {
  const text = body.toString()
  if (text === '') return 'empty'
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return 'not JSON'
  }
  const result = (value as { result?: { success?: unknown, httpCode?: unknown } } | null)?.result
  if (typeof result !== 'object' || result === null || !('content' in (value as object))) return 'other JSON'
  if (result.success === true) return 'success envelope'
  if (result.success !== false) return 'other JSON'
  return result.httpCode === status ? 'error envelope' : `error envelope, httpCode ${JSON.stringify(result.httpCode)}`
}

/** Whether the device and mock-nvr answered alike. */
export function sameObservation (device: Observation, mock: Observation): boolean {
  if (device.status !== mock.status || device.envelope !== mock.envelope) return false
  const names = new Set([...Object.keys(device.headers), ...Object.keys(mock.headers)])
  for (const name of names) if (device.headers[name] !== mock.headers[name]) return false
  return true
}
