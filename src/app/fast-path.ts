import type { IncomingMessage, ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import { JSON_CONTENT_TYPE } from '../contract/envelope.js'
import { matchOperation } from '../contract/paths.js'
import type { Device } from '../device/device.js'
import { decide } from '../pipeline/decide.js'

// Characters an id may hold to be taken here as it is: nothing to decode ('%'), no ';', '#' or '/'.
const PLAIN_SEGMENT = /^[\w\-.~!$&'()*+,=:@]+$/

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
    const match = matchOperation(url as string, plainSegment)
    if (match === undefined) return false
    // With no fault, latency, Prefer or rate limit on, the decision changes nothing: Fastify decides again the same.
    const { outcome } = decide(device, { method, authorization: headers.authorization, prefer: undefined, operation: match.row, params: match.params })
    if (outcome.kind !== 'send') return false
    const { body } = outcome

    const answerHeaders = [...device.corsHeadersFor(headers.origin), 'content-type', JSON_CONTENT_TYPE, 'content-length', String(body.length)]
    response.writeHead(200, answerHeaders)
    response.end(method === 'HEAD' ? undefined : body)
    device.recordAnswered({ method, url: url as string, params: match.params, injectedFault: null }, this.#deps.nextRequestId, 200, performance.now() - start)
    return true
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
