import { Readable } from 'node:stream'
import { clearInterval, setInterval } from 'node:timers'
import type { JournalEntry, RequestJournal } from '../control/journal.js'
import type { DeviceEvents } from '../control/device-events.js'

/** The content type of a server-sent events stream. */
export const EVENT_STREAM_TYPE = 'text/event-stream; charset=utf-8'

export interface JournalStreamLimits {
  /** Streams open at once; one more is refused. */
  maxListeners: number
  /** Events kept for a listener that reads slower than requests arrive; more are dropped and counted. */
  queueLimit: number
  /** How often an idle stream gets a comment line, so proxies and clients see it is alive. */
  heartbeatMs: number
}

export const DEFAULT_STREAM_LIMITS: JournalStreamLimits = { maxListeners: 8, queueLimit: 1000, heartbeatMs: 15_000 }

const HEARTBEAT = ': heartbeat\n\n'

/**
 * The journal as server-sent events, for every open stream. While none is open the journal's hook is unset,
 * so requests pay nothing and nothing is buffered. Each stream reads at its own pace: what its socket and
 * stream buffers cannot take waits in a bounded queue, and what overflows that is dropped and reported.
 */
export class JournalStream {
  readonly limits: JournalStreamLimits
  readonly #journal: RequestJournal
  readonly #events: DeviceEvents | undefined
  readonly #listeners = new Set<JournalListener>()
  #heartbeat: NodeJS.Timeout | undefined

  /** `events`: the device's changes of health and data, sent as `health` and `data` events between the requests. */
  constructor (journal: RequestJournal, limits: Partial<JournalStreamLimits> = {}, events?: DeviceEvents) {
    this.#journal = journal
    this.#events = events
    this.limits = { ...DEFAULT_STREAM_LIMITS, ...limits }
  }

  /** Streams open now. */
  get size (): number {
    return this.#listeners.size
  }

  /** A new stream of the requests recorded from now on, or undefined when maxListeners are open. */
  open (): JournalListener | undefined {
    if (this.#listeners.size >= this.limits.maxListeners) return undefined
    const listener = new JournalListener(this.limits.queueLimit, () => this.#remove(listener))
    listener.send(event('ready', { total: this.#journal.total, capacity: this.#journal.capacity }))
    this.#listeners.add(listener)
    if (this.#listeners.size === 1) {
      this.#journal.onRecord = (entry, seq) => this.#broadcast(event('request', { seq, ...entry }, seq))
      if (this.#events !== undefined) this.#events.onRecord = change => this.#broadcast(event(change.kind, change))
      this.#heartbeat = setInterval(() => this.#broadcast(HEARTBEAT), this.limits.heartbeatMs).unref()
    }
    return listener
  }

  /** Ends every stream: the ones keeping up get the end of the stream, the ones stuck are cut. */
  closeAll (): void {
    for (const listener of this.#listeners) listener.end()
  }

  #broadcast (text: string): void {
    for (const listener of this.#listeners) listener.send(text)
  }

  #remove (listener: JournalListener): void {
    this.#listeners.delete(listener)
    if (this.#listeners.size > 0) return
    this.#journal.onRecord = null
    if (this.#events !== undefined) this.#events.onRecord = null
    clearInterval(this.#heartbeat)
  }
}

/** One open stream: a readable of event text with a bounded queue behind it. */
export class JournalListener {
  readonly readable: Readable
  readonly #queueLimit: number
  #queue: string[] = []
  #dropped = 0
  /** The readable's buffer is full: events wait in the queue until it asks for more. */
  #blocked = false
  #ended = false

  constructor (queueLimit: number, onClose: () => void) {
    this.#queueLimit = queueLimit
    this.readable = new Readable({ read: () => this.#flush() })
    this.readable.once('close', onClose)
  }

  /** Events waiting in the queue. */
  get queued (): number {
    return this.#queue.length
  }

  /** Events dropped since the last report of them. */
  get dropped (): number {
    return this.#dropped
  }

  send (text: string): void {
    if (this.#ended) return
    if (!this.#blocked && this.#queue.length === 0) {
      this.#blocked = !this.readable.push(text)
      return
    }
    if (this.#queue.length >= this.#queueLimit) {
      this.#dropped++
      return
    }
    this.#reportDropped()
    this.#queue.push(text)
  }

  end (): void {
    this.#ended = true
    if (this.#blocked) this.readable.destroy()
    else this.readable.push(null)
  }

  #flush (): void {
    this.#blocked = false
    while (!this.#blocked && this.#queue.length > 0) this.#blocked = !this.readable.push(this.#queue.shift() as string)
    if (this.#queue.length === 0) this.#reportDropped()
  }

  // Said where the gap is: after the events that were kept, before the next one.
  #reportDropped (): void {
    if (this.#dropped === 0) return
    const text = event('dropped', { dropped: this.#dropped })
    this.#dropped = 0
    if (this.#blocked) this.#queue.push(text)
    else this.#blocked = !this.readable.push(text)
  }
}

export type StreamedEntry = JournalEntry & { seq: number }

function event (name: string, data: unknown, id?: number): string {
  return `event: ${name}\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`
}
