import { Readable } from 'node:stream'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { FastifyReply } from 'fastify'
import { JSON_CONTENT_TYPE, SUCCESS_PREFIX, successEnvelope } from '../contract/envelope.js'
import { apiErrors } from '../wire/errors.js'
import type { Steps } from '../util/steps.js'

// The pages of the admin answers that would otherwise be megabytes (a fleet's devices, its journal, a device's full
// journal), and how any such answer is written: a slice of items per turn of the event loop, never all in one.

/** The largest `limit` a page takes. */
export const MAX_LIMIT = 100_000

/** Items serialized per turn of the event loop: a few milliseconds at most, so no device waits behind an answer. */
export const ITEMS_PER_TURN = 250

/** The query of a paged admin call, as Fastify parsed it: a parameter given twice is an array. */
export type Query = Readonly<Record<string, string | string[] | undefined>>

/** The one value of a query parameter, undefined when absent; given twice, or empty, it is refused with its name. */
export function parameter (query: Query | undefined, name: string): string | undefined {
  const value = query?.[name]
  if (value === undefined) return undefined
  if (Array.isArray(value)) throw apiErrors.invalidQuery(name, 'must be given once')
  if (value === '') throw apiErrors.invalidQuery(name, 'must not be empty')
  return value
}

/** `limit`: a whole number from 1 to MAX_LIMIT, or the default when absent. */
export function limitOf (query: Query | undefined, fallback: number): number {
  const text = parameter(query, 'limit')
  if (text === undefined) return fallback
  const value = /^\d+$/.test(text) ? Number(text) : NaN
  if (!(value >= 1 && value <= MAX_LIMIT)) throw apiErrors.invalidQuery('limit', `must be a whole number from 1 to ${MAX_LIMIT}, not ${JSON.stringify(text)}`)
  return value
}

/** What a page's items are read from: the next item, or undefined once there is none. */
export type NextItem<T> = () => T | undefined

/**
 * A success envelope whose content is an object with one list, `key`, of up to `limit` items, and the fields
 * `rest` gives once the list is written (a page's `next`, a total): the list is serialized a slice of items per
 * turn of the event loop.
 */
export async function * steppedEnvelope<T> (key: string, next: NextItem<T>, limit: number, rest: () => object, steps: Steps = {}): AsyncGenerator<string> {
  yield `${SUCCESS_PREFIX}{${JSON.stringify(key)}:`
  yield * steppedItems(next, limit, steps)
  const fields = JSON.stringify(rest())
  yield `${fields === '{}' ? '' : `,${fields.slice(1, -1)}`}}}`
}

/** A success envelope (of this status) whose content is the list of items `next` reads, serialized a slice per turn. */
export async function * steppedList<T> (next: NextItem<T>, status = 200, steps: Steps = {}): AsyncGenerator<string> {
  const empty = successEnvelope(null, status)
  yield empty.slice(0, -'null}'.length)
  yield * steppedItems(next, Number.POSITIVE_INFINITY, steps)
  yield '}'
}

// `[item,item…]`, at most `limit` items, a slice of them per turn of the event loop.
async function * steppedItems<T> (next: NextItem<T>, limit: number, { perTurn: itemsPerTurn = ITEMS_PER_TURN, turn = nextTurn }: Steps): AsyncGenerator<string> {
  let text = '['
  let written = 0
  for (;;) {
    let item: T | undefined
    if (written < limit) item = next()
    if (item === undefined) break
    text += `${written === 0 ? '' : ','}${JSON.stringify(item)}`
    written++
    if (written % itemsPerTurn === 0) {
      yield text
      text = ''
      await turn()
    }
  }
  yield `${text}]`
}

/** An answer of a verb written in steps: a list under `key`, read item by item, then the fields `rest` gives. */
export class SteppedAnswer<T> {
  constructor (readonly key: string, readonly page: { next: NextItem<T>, limit: number, rest: () => object }) {}

  send (reply: FastifyReply): FastifyReply {
    return sendStepped(reply, () => steppedEnvelope(this.key, this.page.next, this.page.limit, this.page.rest))
  }
}

/** The query string of a page's arguments (an MCP tool's `limit` and `since`), empty when there are none. */
export function pageQuery (args: Record<string, unknown>, names: readonly string[]): string {
  const given = names.filter(name => args[name] !== undefined).map(name => `${name}=${encodeURIComponent(String(args[name]))}`)
  return given.length === 0 ? '' : `?${given.join('&')}`
}

/** Sends a stepped envelope (a 200 unless told), read as the socket takes it; a HEAD gets the headers alone. */
export function sendStepped (reply: FastifyReply, steps: () => AsyncGenerator<string>, status = 200): FastifyReply {
  reply.code(status).type(JSON_CONTENT_TYPE)
  if (reply.request.method === 'HEAD') return reply.send()
  return reply.send(Readable.from(steps(), { objectMode: false }))
}
