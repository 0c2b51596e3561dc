import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify'
import { createRequire } from 'node:module'
import { pino } from 'pino'
import type PinoPretty from 'pino-pretty'
import type { RequestJournal } from './journal.js'
import type { ResolvedOptions } from './options.js'

/**
 * Header values that may hold secrets, wherever an object logged with its headers puts them. A request
 * goes through Fastify's req serializer, which writes no headers at all; a path under req would run
 * every request's line through the redactor, about a quarter of the line's cost.
 */
export const REDACTED_PATHS = ['headers.authorization', 'headers.cookie']

const require = createRequire(import.meta.url)
const LOG_BUFFER_LIMIT = 16 * 1024 * 1024

/** pino writing JSON lines to stdout, or pretty lines when asked (in-process, no worker thread). */
export function createLogger ({ logLevel, prettyLogs }: Pick<ResolvedOptions, 'logLevel' | 'prettyLogs'>): FastifyBaseLogger {
  const options = { level: logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }
  // Asynchronous: lines written while a write is under way go out together, instead of one write call per
  // request line; pino flushes what is left when the process exits. Past 16 MB waiting, lines are dropped
  // rather than memory grown, should stdout stop being read.
  if (!prettyLogs) return pino(options, pino.destination({ dest: 1, sync: false, maxLength: LOG_BUFFER_LIMIT }))
  // Loaded only when asked for: its forty modules would otherwise add to every start.
  const pretty = require('pino-pretty') as typeof PinoPretty
  return pino(options, pretty({ sync: true, ignore: 'pid,hostname' }))
}

/**
 * One log line per request, when it completes, with method, URL, status and time; nothing else. Flat
 * fields rather than Fastify's req and res objects: the same line for half the cost, as it is written
 * for every request at the default level.
 * Fastify calls it once per answered request, so it records the request in the journal too.
 */
export class OneLinePerRequest extends LogController {
  readonly #journal: RequestJournal | undefined

  constructor (journal?: RequestJournal) {
    super()
    this.#journal = journal
  }

  override incomingRequest (): void {}

  override routeNotFound (): void {}

  override requestCompleted (error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const responseTime = reply.elapsedTime
    const { method, url } = request
    const statusCode = reply.statusCode
    this.#journal?.record(request, statusCode, responseTime)
    if (error) {
      reply.log.error({ method, url, statusCode, responseTime, err: error }, 'request errored')
    } else if (isInfoEnabled(reply.log)) {
      // Checked first: at warn, the usual level under load, a request then costs no log object at all.
      reply.log.info({ method, url, statusCode, responseTime }, 'request completed')
    }
  }
}

// pino answers from the level it holds; a logger of another make that cannot say is asked to log anyway.
export function isInfoEnabled (log: FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean }): boolean {
  return log.isLevelEnabled?.('info') ?? true
}
