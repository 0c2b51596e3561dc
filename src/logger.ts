import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify'
import { pino } from 'pino'
import pretty from 'pino-pretty'
import type { ResolvedOptions } from './options.js'

/** Header values that may hold secrets; none of them is ever written to a log line. */
export const REDACTED_PATHS = ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization']

/** pino writing JSON lines to stdout, or pretty lines when asked (in-process, no worker thread). */
export function createLogger ({ logLevel, prettyLogs }: Pick<ResolvedOptions, 'logLevel' | 'prettyLogs'>): FastifyBaseLogger {
  const options = { level: logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }
  if (prettyLogs) return pino(options, pretty({ sync: true, ignore: 'pid,hostname' }))
  return pino(options)
}

/** One log line per request, when it completes, with method, URL, status and time; nothing else. */
export class OneLinePerRequest extends LogController {
  override incomingRequest (): void {}

  override routeNotFound (): void {}

  override requestCompleted (error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime }
    if (error) reply.log.error({ ...line, err: error }, 'request errored')
    else reply.log.info(line, 'request completed')
  }
}
