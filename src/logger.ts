import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify'
import { pino } from 'pino'
import pretty from 'pino-pretty'
import type { RequestJournal } from './journal.js'
import type { ResolvedOptions } from './options.js'

/** Header values that may hold secrets; none of them is ever written to a log line. */
export const REDACTED_PATHS = ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization']

/** pino writing JSON lines to stdout, or pretty lines when asked (in-process, no worker thread). */
export function createLogger ({ logLevel, prettyLogs }: Pick<ResolvedOptions, 'logLevel' | 'prettyLogs'>): FastifyBaseLogger {
  const options = { level: logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }
  if (prettyLogs) return pino(options, pretty({ sync: true, ignore: 'pid,hostname' }))
  return pino(options)
}

/**
 * One log line per request, when it completes, with method, URL, status and time; nothing else.
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
    this.#journal?.record(request, reply.statusCode, responseTime)
    const line = { req: request, res: reply, responseTime }
    if (error) reply.log.error({ ...line, err: error }, 'request errored')
    else reply.log.info(line, 'request completed')
  }
}
