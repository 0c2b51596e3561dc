import { Readable } from 'node:stream'
import { clearInterval, setInterval } from 'node:timers'
import type { FastifyReply } from 'fastify'
import type { JournalEntry, RequestJournal } from '../control/journal.js'
import type { DeviceEvents } from '../control/device-events.js'
import type { DeviceRoster, RosterEntry } from '../device/roster.js'
import { apiErrors } from '../wire/errors.js'
import { DEVICES_PER_TURN, mapInSteps } from '../util/in-steps.js'

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

/** Sends one event: its name, its data, and its id when it has one. */
export type SendEvent = (name: string, data: unknown, id?: number) => void

/** What a stream carries: the data of its first event, and what happens from then on, heard until told to stop. */
export interface StreamSource {
  ready: () => unknown
  /** Starts sending what happens, until stopped. */
  listen: (send: SendEvent) => Listening
}

/** A source being listened to: how to stop, and, for one that starts in steps, when it hears everything. */
export interface Listening {
  stop: () => void
  hearing?: Promise<void>
}

/**
 * One device's journal, each request numbered since the last clear (the event's id), and its changes of health
 * and data (`events`), sent as `health` and `data` events between the requests.
 */
export function deviceSource (journal: RequestJournal, events?: DeviceEvents): StreamSource {
  return {
    ready: () => ({ total: journal.total, capacity: journal.capacity }),
    listen: send => {
      const unlisten = journal.listeners.add((entry, seq) => { send('request', { seq, ...entry }, seq) })
      const unlistenEvents = events?.listeners.add(change => { send(change.kind, change) })
      return {
        stop: () => {
          unlisten()
          unlistenEvents?.()
        }
      }
    }
  }
}

/**
 * Every device of a fleet, as deviceSource, each event with its device's name first and no id (each device counts
 * its own); with `requests: false`, the health and data events alone, so a page that shows states pays nothing per
 * request. Its devices are listened to a slice per turn of the event loop, so no device waits behind a connect;
 * a stream's ready event comes once every device is heard.
 */
export function fleetSource (roster: DeviceRoster, { requests = true }: { requests?: boolean } = {}): StreamSource {
  return {
    ready: () => ({ devices: roster.entries.length, total: roster.entries.reduce((sum, { device }) => sum + device.requestsTotal, 0) }),
    listen: send => {
      const stops: Array<() => void> = []
      let stopped = false
      const hear = ({ device: { name, journal, events } }: RosterEntry): void => {
        if (stopped) return
        const named: SendEvent = (event, data) => { send(event, { device: name, ...(data as object) }) }
        stops.push(requests ? deviceSource(journal, events).listen(named).stop : events.listeners.add(change => { named(change.kind, change) }))
      }
      const stop = (): void => {
        stopped = true
        for (const each of stops.splice(0)) each()
      }
      // A fleet that fits in one turn is heard at once.
      if (roster.entries.length <= DEVICES_PER_TURN) {
        roster.entries.forEach(hear)
        return { stop }
      }
      return { stop, hearing: mapInSteps(roster.entries, hear).then(() => {}) }
    }
  }
}

/**
 * A source as server-sent events, for every open stream. While none is open the source is not listened to,
 * so requests pay nothing and nothing is buffered. Each stream reads at its own pace: what its socket and
 * stream buffers cannot take waits in a bounded queue, and what overflows that is dropped and reported.
 */
export class JournalStream {
  readonly limits: JournalStreamLimits
  readonly #source: StreamSource
  readonly #listeners = new Set<JournalListener>()
  /** Streams opened while the source starts listening: each gets its ready event once it hears everything. */
  readonly #waiting = new Set<JournalListener>()
  #listening: Listening | undefined
  #heartbeat: NodeJS.Timeout | undefined

  constructor (source: StreamSource, limits: Partial<JournalStreamLimits> = {}) {
    this.#source = source
    this.limits = { ...DEFAULT_STREAM_LIMITS, ...limits }
  }

  /** Streams open now. */
  get size (): number {
    return this.#listeners.size + this.#waiting.size
  }

  /** A new stream of the requests recorded from now on, or undefined when maxListeners are open. */
  open (): JournalListener | undefined {
    if (this.size >= this.limits.maxListeners) return undefined
    const listener = new JournalListener(this.limits.queueLimit, () => this.#remove(listener))
    if (this.#listening === undefined) {
      this.#listening = this.#source.listen((name, data, id) => { this.#broadcast(event(name, data, id)) })
      this.#heartbeat = setInterval(() => this.#broadcast(HEARTBEAT), this.limits.heartbeatMs).unref()
    }
    // Heard from its ready event on: events before it go to the streams already open, not to this one.
    const welcome = (): void => {
      if (!this.#waiting.delete(listener)) return
      listener.send(event('ready', this.#source.ready()))
      this.#listeners.add(listener)
    }
    this.#waiting.add(listener)
    const { hearing } = this.#listening
    if (hearing === undefined) welcome()
    else hearing.then(welcome, welcome)
    return listener
  }

  /** Ends every stream: the ones keeping up get the end of the stream, the ones stuck are cut. */
  closeAll (): void {
    for (const listener of [...this.#waiting, ...this.#listeners]) listener.end()
  }

  #broadcast (text: string): void {
    for (const listener of this.#listeners) listener.send(text)
  }

  #remove (listener: JournalListener): void {
    this.#listeners.delete(listener)
    this.#waiting.delete(listener)
    if (this.size > 0) return
    this.#listening?.stop()
    this.#listening = undefined
    clearInterval(this.#heartbeat)
  }
}

/** Answers a GET with a new stream of this source (a 503 past its limit), a HEAD with the stream's headers alone. */
export function answerWithStream (reply: FastifyReply, journalStream: JournalStream): FastifyReply {
  reply.type(EVENT_STREAM_TYPE).header('cache-control', 'no-store')
  if (reply.request.method === 'HEAD') return reply.send()
  const listener = journalStream.open()
  if (listener === undefined) throw apiErrors.tooManyStreams(journalStream.limits.maxListeners)
  return reply.send(listener.readable)
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
