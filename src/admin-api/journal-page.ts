import type { JournalEntry, RequestJournal } from '../control/journal.js'
import { apiErrors } from '../wire/errors.js'
import { limitOf, parameter, type NextItem, type Query } from './paging.js'

// The journal a page at a time, as WireMock pages its own (GET /__admin/requests?limit=…&since=…): a device's in the
// order its answers ended, a fleet's the same across every device, merged without gathering or sorting them all.

/** A journal entry of a fleet: the device's name first. */
export type FleetJournalEntry = { device: string } & JournalEntry

/** A page being read: its entries one by one, then what the answer says besides them. */
export interface JournalPage<T> {
  next: NextItem<T>
  limit: number
  rest: () => object
}

/** What `since` of a device's journal holds: a request's number (a page's `next`), or a time. */
type DeviceSince = { seq: number } | { time: number }

const ISO_TIME = /^\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:\d\d)$/

function timeOf (text: string): number | undefined {
  const time = ISO_TIME.test(text) ? Date.parse(text) : NaN
  return Number.isNaN(time) ? undefined : time
}

function deviceSince (query: Query | undefined): DeviceSince | undefined {
  const text = parameter(query, 'since')
  if (text === undefined) return undefined
  if (/^\d{1,15}$/.test(text)) return { seq: Number(text) }
  const time = timeOf(text)
  if (time === undefined) throw apiErrors.invalidQuery('since', `must be a page's next (a request's number) or an ISO 8601 time, not ${JSON.stringify(text)}`)
  return { time }
}

// The first number in [from, to] whose answer ended after the time (answers end in the order they are numbered).
function firstAfter (from: number, to: number, after: (seq: number) => boolean): number {
  let low = from
  let high = to + 1
  while (low < high) {
    const middle = Math.floor((low + high) / 2)
    if (after(middle)) high = middle
    else low = middle + 1
  }
  return low
}

/**
 * A device's journal from `since` (its requests after that number, or answered after that time; from the oldest held
 * when absent), `limit` of them at most (all when absent): each entry read when its turn comes, so a journal of a
 * million is never gathered at once. With a page asked for, `next` is the number to ask `since` for the page after
 * and `more` whether it holds requests already.
 */
export function devicePage (journal: RequestJournal, query: Query | undefined): JournalPage<JournalEntry> {
  const since = deviceSince(query)
  const limit = limitOf(query, Number.MAX_SAFE_INTEGER)
  const paged = since !== undefined || limit !== Number.MAX_SAFE_INTEGER
  const generation = journal.generation
  // What the journal holds when asked: requests recorded while the answer is written wait for the next page.
  const end = journal.total
  let seq = since === undefined
    ? journal.firstSeq
    : 'seq' in since ? Math.max(since.seq + 1, journal.firstSeq) : firstAfter(journal.firstSeq, end, at => journal.endedAt(at) > since.time)
  let last: number | undefined
  return {
    limit,
    next: () => {
      // A clear ends the page; entries the ring has let go of meanwhile are skipped.
      if (journal.generation !== generation) return undefined
      seq = Math.max(seq, journal.firstSeq)
      if (seq > end) return undefined
      last = seq++
      return journal.entryAt(last)
    },
    // `next` and `more` come with a page asked for: the whole journal is answered as it always was.
    rest: () => paged
      ? {
          total: journal.total,
          capacity: journal.capacity,
          next: last ?? (since !== undefined && 'seq' in since ? Math.min(since.seq, journal.total) : journal.total),
          more: journal.generation === generation && seq <= journal.total
        }
      : { total: journal.total, capacity: journal.capacity }
  }
}

/** Where a fleet's page ends: the answer's end time, the device's place in the fleet and its request's number. */
interface FleetCursor {
  at: number
  index: number
  seq: number
}

const FLEET_CURSOR = /^(\d{1,16}(?:\.\d{1,6})?)_(\d{1,6})_(\d{1,15})$/

function fleetSince (query: Query | undefined): FleetCursor | undefined {
  const text = parameter(query, 'since')
  if (text === undefined) return undefined
  const cursor = FLEET_CURSOR.exec(text)
  if (cursor !== null) return { at: Number(cursor[1]), index: Number(cursor[2]), seq: Number(cursor[3]) }
  const time = timeOf(text)
  if (time === undefined) throw apiErrors.invalidQuery('since', `must be a page's next or an ISO 8601 time, not ${JSON.stringify(text)}`)
  return { at: time, index: Infinity, seq: Infinity }
}

const cursorText = ({ at, index, seq }: FleetCursor) => `${at}_${index}_${seq}`

// The fleet's order: by when the answer ended, then by the device's place in the fleet, then by its number.
const before = (a: FleetCursor, b: FleetCursor) => a.at !== b.at ? a.at < b.at : a.index !== b.index ? a.index < b.index : a.seq < b.seq

/** A device of the merge: the next request of its journal to read, up to what it held when the page was asked. */
interface Head extends FleetCursor {
  journal: RequestJournal
  name: string
  generation: number
  end: number
}

/** A journal of the fleet, one device's name each, as FleetJournalEntry reads it. */
export interface NamedJournal {
  name: string
  journal: RequestJournal
}

/**
 * Every device's journal as one, in the fleet's order, from a cursor: a k-way merge over a heap of one head per device,
 * so a page of N entries of D devices costs D binary searches and N log D steps, never every entry and a sort.
 */
export class FleetMerge {
  readonly #heap: Head[] = []
  #last: FleetCursor | undefined

  constructor (journals: readonly NamedJournal[], since?: FleetCursor) {
    journals.forEach(({ name, journal }, index) => {
      const end = journal.total
      const seq = since === undefined
        ? journal.firstSeq
        : firstAfter(journal.firstSeq, end, at => before(since, { at: journal.endedAt(at), index, seq: at }))
      if (seq <= end) this.#heap.push({ journal, name, generation: journal.generation, end, index, seq, at: journal.endedAt(seq) })
    })
    for (let at = (this.#heap.length >> 1) - 1; at >= 0; at--) this.#down(at)
  }

  /** Where the entries read so far end, for the next page's `since`. */
  get last (): string | undefined {
    return this.#last === undefined ? undefined : cursorText(this.#last)
  }

  /** Whether entries are left to read. */
  get more (): boolean {
    return this.#heap.length > 0
  }

  next (): FleetJournalEntry | undefined {
    for (;;) {
      const head = this.#heap[0]
      if (head === undefined) return undefined
      const { journal } = head
      // A cleared journal is done; requests its ring has let go of meanwhile are skipped.
      if (journal.generation !== head.generation || Math.max(head.seq, journal.firstSeq) > head.end) {
        this.#pop()
        continue
      }
      if (head.seq < journal.firstSeq) {
        head.seq = journal.firstSeq
        head.at = journal.endedAt(head.seq)
        this.#down(0)
        continue
      }
      this.#last = { at: head.at, index: head.index, seq: head.seq }
      const entry = { device: head.name, ...journal.entryAt(head.seq) }
      if (head.seq < head.end) {
        head.seq++
        head.at = journal.endedAt(head.seq)
        this.#down(0)
      } else {
        this.#pop()
      }
      return entry
    }
  }

  #pop (): void {
    const tail = this.#heap.pop() as Head
    if (this.#heap.length === 0) return
    this.#heap[0] = tail
    this.#down(0)
  }

  #down (from: number): void {
    const heap = this.#heap
    let at = from
    for (;;) {
      const left = 2 * at + 1
      const right = left + 1
      let least = at
      if (left < heap.length && before(heap[left] as Head, heap[least] as Head)) least = left
      if (right < heap.length && before(heap[right] as Head, heap[least] as Head)) least = right
      if (least === at) return
      ;[heap[at], heap[least]] = [heap[least] as Head, heap[at] as Head]
      at = least
    }
  }
}

/** Entries in a fleet's journal page unless `limit` says otherwise: some 3 MB, written in steps. */
export const FLEET_JOURNAL_LIMIT = 10_000

/** A page of the fleet's journal from `since` (a page's next, or an ISO time), `limit` entries at most (10,000 by default). */
export function fleetPage (journals: readonly NamedJournal[], query: Query | undefined, total: () => number): JournalPage<FleetJournalEntry> {
  const since = parameter(query, 'since')
  const cursor = fleetSince(query)
  const limit = limitOf(query, FLEET_JOURNAL_LIMIT)
  const merge = new FleetMerge(journals, cursor)
  return {
    limit,
    next: () => merge.next(),
    rest: () => ({ total: total(), next: merge.last ?? since ?? null, more: merge.more })
  }
}
