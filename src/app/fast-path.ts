import type { IncomingMessage, ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import { JSON_CONTENT_TYPE } from '../contract/envelope.js'
import { matchOperation, type OperationMatch } from '../contract/paths.js'
import type { Device } from '../device/device.js'
import { decide } from '../pipeline/decide.js'

// Characters an id may hold to be taken here as it is: nothing to decode ('%'), no ';', '#' or '/'.
const PLAIN_SEGMENT = /^[\w\-.~!$&'()*+,=:@]+$/
/** How many URLs the fast path remembers the match of; past it, it starts again, so unique URLs cannot grow it. */
export const MATCHED_URLS = 1024
/** How many answer lengths the fast path keeps a header list for, per set of CORS headers. */
export const HEADER_LISTS = 1024

export interface FastPathDependencies {
  /** The request ids Fastify uses too, so log lines of both paths count alike. */
  nextRequestId: () => string
}

/**
 * Answers the reads that succeed — an accepted GET or HEAD of a list or a line that exists, as the pipeline
 * decides (pipeline/decide.ts) — straight from Node's request event, with the prepared bytes and the very headers, log line and journal entry
 * Fastify's request cycle would give. Every other request goes on to Fastify: anything to decode in the
 * path, a body, a missing Host, a refused token, a camera outside the token's scope, an unknown id, a
 * device that does not answer plainly (a fault, latency, Prefer or a limit is on: Device.answersPlainly), and every request once the server is
 * closing. The served bytes are then the same either way; only the request's own cost differs, which is most
 * of the cost of a small answer. Each request is answered from the state of the device whose listener it arrived on.
 */
export class FastPath {
  readonly #deps: FastPathDependencies
  #closing = false
  // A load test asks a few URLs again and again: each is matched once, and its match (the same parameters object
  // each time, which the journal then holds once) read back with one lookup. Null for a URL that matches nothing.
  readonly #matches = new Map<string, OperationMatch | null>()
  // The answer's headers, made once per CORS headers and body length, all they depend on: Node still checks each,
  // but nothing is built per request.
  readonly #headers = new WeakMap<readonly string[], Map<number, string[]>>()

  constructor (deps: FastPathDependencies) {
    this.#deps = deps
  }

  /** From now on every request goes to Fastify, which answers with Connection: close while closing. */
  stop (): void {
    this.#closing = true
  }

  /** Answers the request and returns true, or returns false, leaving it untouched, for Fastify. */
  answer (device: Device, request: IncomingMessage, response: ServerResponse): boolean {
    const start = performance.now()
    const { method, url, headers } = request
    if ((method !== 'GET' && method !== 'HEAD') || this.#closing || !device.answersPlainly) return false
    if (headers.host === undefined || headers['transfer-encoding'] !== undefined || (headers['content-length'] ?? '0') !== '0') return false
    const match = this.#match(url as string)
    if (match === null) return false
    // With no fault, latency, Prefer or rate limit on, the decision changes nothing: Fastify decides again the same.
    const { outcome } = decide(device, { method, authorization: headers.authorization, prefer: undefined, operation: match.row, params: match.params })
    if (outcome.kind !== 'send') return false
    // A server's store holds bytes (data/data-store.ts); answers as strings are the MSW handlers'.
    const body = outcome.body as Uint8Array

    response.writeHead(200, this.#headersOf(body.length, device.corsHeadersFor(headers.origin)))
    response.end(method === 'HEAD' ? undefined : body)
    device.recordAnswered({ method, url: url as string, params: match.params, injectedFault: null }, this.#deps.nextRequestId, 200, performance.now() - start)
    return true
  }

  #match (url: string): OperationMatch | null {
    let match = this.#matches.get(url)
    if (match === undefined) {
      match = matchOperation(url, plainSegment) ?? null
      if (this.#matches.size >= MATCHED_URLS) this.#matches.clear()
      this.#matches.set(url, match)
    }
    return match
  }

  #headersOf (length: number, cors: readonly string[]): string[] {
    let byLength = this.#headers.get(cors)
    if (byLength === undefined) {
      byLength = new Map()
      this.#headers.set(cors, byLength)
    }
    let headers = byLength.get(length)
    if (headers === undefined) {
      headers = [...cors, 'content-type', JSON_CONTENT_TYPE, 'content-length', String(length)]
      // Data replaced again and again cannot grow it past this many lengths.
      if (byLength.size >= HEADER_LISTS) byLength.clear()
      byLength.set(length, headers)
    }
    return headers
  }
}

/** The path parameters of a read, as Fastify's router would give them. */
interface ReadParams {
  id: string
  line_id?: string
}

/** The parameters of /nvr/v1/cameras/{id}/counting_lines[/{line_id}] (query and one trailing slash ignored), if plain. */
export function matchRead (url: string): ReadParams | undefined {
  return matchOperation(url, plainSegment)?.params as ReadParams | undefined
}

// A segment with nothing to decode, taken as it is; dot segments are left to the router too, whatever it makes of them.
function plainSegment (segment: string): string | undefined {
  return segment !== '.' && segment !== '..' && PLAIN_SEGMENT.test(segment) ? segment : undefined
}
