import { ADMIN_PREFIX, API_PREFIX, isUnder } from '../contract/paths.js'
import { DEFAULT_JOURNAL_SIZE } from '../config/options-schema.js'
import { Listeners } from '../util/listeners.js'

/** What the journal reads of a request: Fastify's, or the fast path's few fields. */
export interface RecordedRequest {
  method: string
  url: string
  params: unknown
  injectedFault?: string | null
  contractViolations?: number | null
  /** The journal's generation when a request began to wait; one answered after a clear() is not the new journal's. */
  journalGeneration?: number
}

/** One request mock-nvr answered (or dropped), as the journal reports it. */
export interface JournalEntry {
  method: string
  /** The path as sent, without the query string. */
  path: string
  /** The URL as sent, query string included. */
  url: string
  /** Path parameters after percent-decoding, e.g. { id: 'cam-1', line_id: 'line-2' }; {} for an unknown path. */
  params: Record<string, string>
  /** Whether the bearer token was accepted; null where none is needed (outside /nvr/v1, CORS preflights). */
  authenticated: boolean | null
  /** The status answered; null when the connection was dropped on purpose. */
  status: number | null
  /** The id of the injected fault that shaped the answer, 'prefer' for a Prefer header; null otherwise. */
  fault: string | null
  /** When the request arrived, as an ISO timestamp. */
  time: string
  /** Milliseconds from arrival to the end of the answer. */
  durationMs: number
  /** When proxying the target: the contract violations its answer held (only on proxied requests). */
  contractViolations?: number
}

// Slots are made as requests come, from this many, doubling up to the capacity: a device nobody calls holds none.
const FIRST_SLOTS = 16
const NO_SLOTS: never[] = []
/** The code of a slot whose method or URL is not in its table: the value is in the slot's column of odd values. */
const ODD = 255
/** How many URLs a journal keeps a code for, each with its shared record; past it, a URL takes a slot's own record. */
export const INTERNED_URLS = ODD

/** A URL as sent and its path parameters, held once for every slot of a request to it. */
interface UrlRecord {
  readonly url: string
  readonly params: unknown
}
const NO_CODES = new Uint8Array(0)
const NO_STATUSES = new Uint16Array(0)
const NO_TIMES = new Float64Array(0)

// Every journal's method codes: the methods HTTP has are a few dozen, and any past ODD - 1 are kept as odd values.
const METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE']
const METHOD_CODES = new Map(METHODS.map((method, code) => [method, code]))

function methodCode (method: string): number {
  const known = METHOD_CODES.get(method)
  if (known !== undefined) return known
  if (METHODS.length === ODD) return ODD
  METHOD_CODES.set(method, METHODS.length)
  return METHODS.push(method) - 1
}

/**
 * The last N requests in a ring buffer of parallel columns: recording one is a few writes into slots that already
 * exist, so an idle journal costs next to nothing per request. The slots are made as the requests come, doubling
 * up to N, and then reused: a fleet of 10,000 devices holds slots for the requests they have had, not 10,000 × N.
 * A slot is some 20 bytes of typed arrays, which the garbage collector does not walk: its method and URL are codes
 * into a table of each (a load test asks a few URLs again and again, each URL's record held once), its status and
 * times numbers. What most requests lack (a fault, contract violations, a URL past the table) has a column of its
 * own, made for the first slot that has it. clear() gives all of it back.
 */
export class RequestJournal {
  readonly capacity: number
  // Every journal starts with these, which nothing writes to: the first request grows them into its own.
  #methods = NO_CODES
  #urls = NO_CODES
  #statuses = NO_STATUSES
  #completedAt = NO_TIMES
  #durations = NO_TIMES
  /** The records of the URLs coded so far, by code; with the codes by URL. Made with the first request. */
  #urlRecords: UrlRecord[] = NO_SLOTS
  #urlCodes: Map<string, number> | undefined
  // The columns of odd values, made for the first slot that has one (oddValue); undefined in a slot without.
  #oddMethods: OddColumn<string>
  #oddUrls: OddColumn<UrlRecord>
  #faults: OddColumn<string>
  #violations: OddColumn<number>
  /** Slots made so far: up to the capacity. */
  #slots = 0
  #next = 0
  #size = 0
  #total = 0
  /** Told of each request as it is recorded, with its number since the last clear(); with none, it costs one check. */
  readonly listeners = new Listeners<[entry: JournalEntry, seq: number]>()

  readonly #now: () => number
  #generation = 0

  /** `now` is the device's clock, in milliseconds since the epoch: a manual clock's time is the journal's too. */
  constructor (capacity = DEFAULT_JOURNAL_SIZE, now: () => number = Date.now) {
    this.capacity = capacity
    this.#now = now
  }

  /** Requests recorded since the start or the last clear(), dropped ones included. */
  get total (): number {
    return this.#total
  }

  /** The slots made so far: from none to the capacity, as requests come; none again after clear(). */
  get slots (): number {
    return this.#slots
  }

  /** How many URLs the journal holds a shared record of: at most INTERNED_URLS. */
  get interned (): number {
    return this.#urlRecords.length
  }

  /** Records a request whose answer ended; status 0 means none was sent. Admin calls are not recorded. */
  record (request: RecordedRequest, status: number, durationMs: number): void {
    const url = request.url
    if (this.capacity === 0 || url.startsWith(ADMIN_PREFIX)) return
    if (request.journalGeneration !== undefined && request.journalGeneration !== this.#generation) return
    const slot = this.#next
    // Only before the ring first wraps: from then on every slot exists.
    if (slot === this.#slots) this.#grow()
    const method = request.method
    const methodCoded = methodCode(method)
    this.#methods[slot] = methodCoded
    this.#oddMethods = oddValue(this.#oddMethods, slot, methodCoded === ODD ? method : undefined)
    const urlCoded = this.#urlCodeOf(url, request.params)
    this.#urls[slot] = urlCoded
    this.#oddUrls = oddValue(this.#oddUrls, slot, urlCoded === ODD ? { url, params: request.params } : undefined)
    // Requests Fastify refuses before routing are built without decorations: no injectedFault there.
    this.#faults = oddValue(this.#faults, slot, request.injectedFault ?? undefined)
    this.#violations = oddValue(this.#violations, slot, request.contractViolations ?? undefined)
    this.#statuses[slot] = status
    this.#completedAt[slot] = this.#now()
    this.#durations[slot] = durationMs
    this.#next = slot + 1 === this.capacity ? 0 : slot + 1
    if (this.#size < this.capacity) this.#size++
    this.#total++
    const tell = this.listeners.tell
    if (tell !== null) tell(this.#entry(slot), this.#total)
  }

  /** The recorded requests, oldest first. */
  entries (): JournalEntry[] {
    const entries: JournalEntry[] = []
    const first = this.#size < this.capacity ? 0 : this.#next
    for (let offset = 0; offset < this.#size; offset++) entries.push(this.#entry((first + offset) % this.capacity))
    return entries
  }

  /** The number since the last clear of the oldest request held (the newest is `total`); past `total` when none is. */
  get firstSeq (): number {
    return this.#total - this.#size + 1
  }

  /** The request numbered `seq` since the last clear; read only between firstSeq and total. */
  entryAt (seq: number): JournalEntry {
    return this.#entry(this.#slotOf(seq))
  }

  /** When the answer of the request numbered `seq` ended, by the journal's clock: what orders several journals as one. */
  endedAt (seq: number): number {
    return this.#completedAt[this.#slotOf(seq)] as number
  }

  #slotOf (seq: number): number {
    const first = this.#size < this.capacity ? 0 : this.#next
    return (first + seq - this.firstSeq) % this.capacity
  }

  // The code of this URL with these parameters: ODD for the same URL routed differently (refused before routing, an
  // unknown path), which gets a record of its own, and for a URL past the table's bound.
  #urlCodeOf (url: string, params: unknown): number {
    const codes = this.#urlCodes ??= new Map()
    const known = codes.get(url)
    if (known !== undefined) {
      const record = this.#urlRecords[known] as UrlRecord
      return record.params === params || sameParams(record.params, params) ? known : ODD
    }
    if (this.#urlRecords.length === INTERNED_URLS) return ODD
    if (this.#urlRecords === NO_SLOTS) this.#urlRecords = []
    const code = this.#urlRecords.push({ url, params }) - 1
    codes.set(url, code)
    return code
  }

  // Twice as many slots, up to the capacity, the recorded ones copied over.
  #grow (): void {
    const slots = Math.min(this.capacity, Math.max(FIRST_SLOTS, this.#slots * 2))
    this.#methods = grown(this.#methods, new Uint8Array(slots))
    this.#urls = grown(this.#urls, new Uint8Array(slots))
    this.#statuses = grown(this.#statuses, new Uint16Array(slots))
    this.#completedAt = grown(this.#completedAt, new Float64Array(slots))
    this.#durations = grown(this.#durations, new Float64Array(slots))
    this.#slots = slots
  }

  /** How many times the journal was cleared: a request held across a clear() belongs to the journal before it. */
  get generation (): number {
    return this.#generation
  }

  /** Empties the journal and gives its slots and URL records back: it holds what a new journal does. */
  clear (): void {
    this.#generation++
    this.#next = 0
    this.#size = 0
    this.#total = 0
    this.#slots = 0
    this.#methods = NO_CODES
    this.#urls = NO_CODES
    this.#statuses = NO_STATUSES
    this.#completedAt = NO_TIMES
    this.#durations = NO_TIMES
    this.#urlRecords = NO_SLOTS
    this.#urlCodes = undefined
    this.#oddMethods = undefined
    this.#oddUrls = undefined
    this.#faults = undefined
    this.#violations = undefined
  }

  #entry (slot: number): JournalEntry {
    const urlCoded = this.#urls[slot] as number
    const { url, params } = (urlCoded === ODD ? this.#oddUrls?.[slot] : this.#urlRecords[urlCoded]) as UrlRecord
    const methodCoded = this.#methods[slot] as number
    const method = (methodCoded === ODD ? this.#oddMethods?.[slot] : METHODS[methodCoded]) as string
    const status = this.#statuses[slot] as number
    const fault = this.#faults?.[slot] ?? null
    const durationMs = Math.round((this.#durations[slot] as number) * 1000) / 1000
    const query = url.indexOf('?')
    const violations = this.#violations?.[slot] ?? null
    return {
      method,
      path: query === -1 ? url : url.slice(0, query),
      url,
      params: namedParams(params as Record<string, string> | null | undefined),
      authenticated: judgedAuthentication(url, method, status, fault),
      status: status === 0 ? null : status,
      fault,
      time: new Date((this.#completedAt[slot] as number) - durationMs).toISOString(),
      durationMs,
      ...(violations === null ? {} : { contractViolations: violations })
    }
  }
}

// Path parameters are a function of the URL, but a request refused before routing has none, and a path the router
// does not know has its wildcard: the same URL may come with either.
function sameParams (known: unknown, params: unknown): boolean {
  if (known === null || known === undefined || params === null || params === undefined) return (known ?? null) === (params ?? null)
  const a = known as Record<string, unknown>
  const b = params as Record<string, unknown>
  let count = 0
  for (const name in a) {
    if (a[name] !== b[name]) return false
    count++
  }
  return Object.keys(b).length === count
}

/** A column of what most slots lack, as a JavaScript array: it grows as slots are written. */
type OddColumn<Value> = Array<Value | undefined> | undefined

// Writes a slot's odd value, or clears the slot's old one; makes the column for the first value.
function oddValue<Value> (column: OddColumn<Value>, slot: number, value: Value | undefined): OddColumn<Value> {
  if (column === undefined) {
    if (value === undefined) return undefined
    column = []
  }
  column[slot] = value
  return column
}

function grown<Typed extends Uint8Array | Uint16Array | Float64Array> (from: Typed, to: Typed): Typed {
  to.set(from)
  return to
}

// The router's wildcard ('*': the rest of an unknown path, or of a docs asset) names nothing a user can read.
function namedParams (params: Record<string, string> | null | undefined): Record<string, string> {
  const named: Record<string, string> = {}
  for (const [name, value] of Object.entries(params ?? {})) if (name !== '*') named[name] = value
  return named
}

// Worked out when read, not when recorded: under /nvr/v1 the bearer check runs first and every refusal
// is a 401, so a 401 that no fault injected is a refusal, and every other answer came after acceptance.
function judgedAuthentication (url: string, method: string, status: number, fault: string | null): boolean | null {
  if (!isUnder(url, API_PREFIX)) return null
  if (fault !== null) return true
  if (status === 401) return false
  // A CORS preflight is answered before the bearer check, which it never needs.
  if (method === 'OPTIONS' && status === 204) return null
  return true
}
