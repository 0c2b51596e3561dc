import type { RecordedRequest, RequestJournal } from './journal.js'
import { DROPPED, RequestCounts } from './request-counts.js'
import { isLevelEnabled, loggedMilliseconds, type RequestLineLevel, type RequestLineWriter, type RequestLog } from '../logging/request-line.js'

/**
 * Where every request ends up once it is answered, whoever answered it (Fastify, the fast path, the
 * refusals before routing, a dropped connection): its entry in the journal and, for an answered
 * request, its one line in the log.
 */
export class RequestRecorder {
  readonly journal: RequestJournal
  /** The device's requests as numbers, for its metrics. */
  readonly counts = new RequestCounts()
  #logging: { log: RequestLog, writeRequestLine: RequestLineWriter, level: RequestLineLevel } | undefined

  constructor (journal: RequestJournal) {
    this.journal = journal
  }

  /** Writes the request lines to this logger, once the app exists, with its quickest line writer, at this level. */
  logTo (log: RequestLog, writeRequestLine: RequestLineWriter, level: RequestLineLevel = 'info'): void {
    this.#logging = { log, writeRequestLine, level }
  }

  /**
   * A request answered in full: its journal entry and its log line. The fast path gives the request id
   * as the function that makes the next one, so an id is made only when a line is written.
   */
  answered (request: RecordedRequest, reqId: string | (() => string), status: number, durationMs: number): void {
    this.#record(request, status, durationMs)
    const logging = this.#logging
    // Checked first: at warn, the usual level under load, a request then costs no log line at all.
    if (logging === undefined || !isLevelEnabled(logging.log, logging.level)) return
    logging.writeRequestLine(typeof reqId === 'string' ? reqId : reqId(), request.method, request.url, status, durationMs)
  }

  /** A request whose answer failed while being sent: its journal entry and an error line. */
  failed (request: RecordedRequest, log: RequestLog, status: number, durationMs: number, error: Error): void {
    this.#record(request, status, durationMs)
    log.error({ method: request.method, url: request.url, statusCode: status, responseTime: loggedMilliseconds(durationMs), err: error }, 'request errored')
  }

  /** A request refused before routing, which Fastify answers outside its request cycle: its journal entry. */
  refusedBeforeRouting (request: RecordedRequest, status: number, durationMs: number): void {
    this.#record(request, status, durationMs)
  }

  /** A connection closed on purpose without an answer: its journal entry, with no status. */
  dropped (request: RecordedRequest, durationMs: number): void {
    this.#record(request, DROPPED, durationMs)
  }

  #record (request: RecordedRequest, status: number, durationMs: number): void {
    this.journal.record(request, status, durationMs)
    this.counts.count(request, status, durationMs)
  }
}
