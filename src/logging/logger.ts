import type { FastifyBaseLogger } from 'fastify'
import { createRequire } from 'node:module'
import { pino } from 'pino'
import type PinoPretty from 'pino-pretty'
import { LogSink } from './log-sink.js'
import { loggedMilliseconds, REQUEST_COMPLETED, type RequestLineLevel, type RequestLineWriter } from './request-line.js'
import type { ResolvedOptions } from '../config/options-schema.js'

/**
 * Header values that may hold secrets, wherever an object logged with its headers puts them. A request
 * goes through Fastify's req serializer, which writes no headers at all; a path under req would run
 * every request's line through the redactor, about a quarter of the line's cost.
 */
export const REDACTED_PATHS = ['headers.authorization', 'headers.cookie']

const require = createRequire(import.meta.url)
// Past this many bytes waiting for stdout, log lines are dropped rather than memory grown.
const LOG_BUFFER_LIMIT = 16 * 1024 * 1024

/** pino writing JSON lines to stdout, or pretty lines when asked (in-process, no worker thread). */
export function createLogger ({ logLevel, prettyLogs }: Pick<ResolvedOptions, 'logLevel' | 'prettyLogs'>): FastifyBaseLogger {
  return prettyLogs ? prettyLogger(logLevel) : jsonLogger(logLevel, new LogSink(1, LOG_BUFFER_LIMIT))
}

/** pino writing pretty lines to `destination` (stdout's descriptor by default): one line for each entry. */
export function prettyLogger (level: string, destination: number | NodeJS.WritableStream = 1): FastifyBaseLogger {
  // Loaded only when asked for: its forty modules would otherwise add to every start.
  const pretty = require('pino-pretty') as typeof PinoPretty
  const logger = pino(pinoOptions(level), pretty({ sync: true, ignore: 'pid,hostname', singleLine: true, destination }))
  requestLineWriters.set(logger, prettyRequestLine(logger))
  prettyLoggers.add(logger)
  return logger
}

// A request's fields would otherwise take a line each: six lines for one request.
function prettyRequestLine (logger: FastifyBaseLogger, level: RequestLineLevel = 'info'): RequestLineWriter {
  return function logPrettyRequestLine (reqId, method, url, statusCode, responseTime) {
    logger[level](`${method} ${url} ${statusCode} ${loggedMilliseconds(responseTime)} ms (${reqId})`)
  }
}

const prettyLoggers = new WeakSet<FastifyBaseLogger>()

/**
 * The log of one device of a fleet: every line it writes, request lines included, carries `device: <name>`,
 * written as quickly as its parent's (the name is in the line's fixed part, not added per request). Its request
 * lines are at debug: at info a fleet writes one line a second with its counts (fleet/fleet-summary.ts).
 */
export function deviceLogger (log: FastifyBaseLogger, name: string): FastifyBaseLogger {
  const child = log.child({ device: name })
  const sink = logSinks.get(log)
  requestLineLevels.set(child, 'debug')
  if (sink !== undefined) {
    logSinks.set(child, sink)
    requestLineWriters.set(child, jsonRequestLine(child as pino.Logger, sink, 'debug'))
  } else if (prettyLoggers.has(log)) {
    requestLineWriters.set(child, prettyRequestLine(child, 'debug'))
  } else {
    requestLineWriters.set(child, fieldsRequestLine(child, 'debug'))
  }
  return child
}

const requestLineLevels = new WeakMap<FastifyBaseLogger, RequestLineLevel>()

/** The level this logger's request lines are written at: debug for a fleet's device, info for any other. */
export function requestLineLevel (log: FastifyBaseLogger): RequestLineLevel {
  return requestLineLevels.get(log) ?? 'info'
}

/** pino writing JSON lines to the sink, request lines as one string, and a warning when lines were dropped. */
export function jsonLogger (level: string, sink: LogSink): FastifyBaseLogger {
  const logger = pino(pinoOptions(level), sink)
  logSinks.set(logger, sink)
  requestLineWriters.set(logger, jsonRequestLine(logger, sink))
  sink.onDropped = function sayLinesWereDropped (droppedLines) {
    logger.warn({ droppedLines }, 'log lines were dropped: stdout was not read as fast as they came')
  }
  return logger
}

function pinoOptions (level: string): pino.LoggerOptions {
  return { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }
}

const logSinks = new WeakMap<FastifyBaseLogger, LogSink>()

/** Resolves once the lines logged so far are written, for the JSON loggers made here; at once for others. */
export async function logsWritten (log: FastifyBaseLogger): Promise<void> {
  await logSinks.get(log)?.flushed()
}

const requestLineWriters = new WeakMap<FastifyBaseLogger, RequestLineWriter>()

/**
 * How a request's line is written to this logger: as one string for the JSON loggers made here, as one short
 * sentence for the pretty ones, and through info() with its fields for any other.
 */
export function requestLineWriter (log: FastifyBaseLogger): RequestLineWriter {
  return requestLineWriters.get(log) ?? fieldsRequestLine(log, 'info')
}

function fieldsRequestLine (log: FastifyBaseLogger, level: RequestLineLevel): RequestLineWriter {
  return function logRequestLine (reqId, method, url, statusCode, responseTime) {
    log[level]({ reqId, method, url, statusCode, responseTime: loggedMilliseconds(responseTime) }, REQUEST_COMPLETED)
  }
}

/**
 * pino's line for a completed request, put together as one string. pino's info() walks the fields one by
 * one, through its serializers and redaction, for a fifth of the line the fast path answers at the default
 * level; the fields here are known, so their JSON is too.
 */
export function jsonRequestLine (logger: pino.Logger, destination: { write: (line: string) => unknown }, lineLevel: RequestLineLevel = 'info'): RequestLineWriter {
  // pid, hostname and any other bindings, as pino keeps them: one string that begins with a comma, or nothing.
  const bindings = (logger as unknown as Record<symbol, string>)[pino.symbols.chindingsSym]
  const level = `{"level":${logger.levels.values[lineLevel] as number}`
  const afterTime = `${bindings},"reqId":`
  return function writeRequestLine (reqId, method, url, statusCode, responseTime) {
    destination.write(`${level},"time":${timeText()}${afterTime}${jsonString(reqId)},"method":${jsonString(method)},"url":${jsonString(url)},"statusCode":${statusCode},"responseTime":${loggedMillisecondsText(responseTime)},"msg":"${REQUEST_COMPLETED}"}\n`)
  }
}

// The parts of a request line that every request has, made as cheaply as they can be: at the default level each
// request pays for them. Each gives the very text that pino's JSON gives.
let lastTime = 0
let lastTimeText = '0'

// Date.now() as text, written again only when the millisecond changes: a number this large is no small integer.
function timeText (): string {
  const now = Date.now()
  if (now !== lastTime) {
    lastTime = now
    lastTimeText = `${now}`
  }
  return lastTimeText
}

// Nothing JSON escapes (quotes, backslashes, control characters, surrogates): most URLs and every id made here.
// eslint-disable-next-line no-control-regex
const PLAIN_JSON_TEXT = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/

function jsonString (text: string): string {
  return PLAIN_JSON_TEXT.test(text) ? `"${text}"` : JSON.stringify(text)
}

// String(loggedMilliseconds(ms)) from whole hundredths: small integers become text far quicker than fractions.
export function loggedMillisecondsText (milliseconds: number): string {
  const hundredths = Math.round(milliseconds * 100)
  // A time that cannot be one (negative, not a number, past any clock) is written as before, whatever it is.
  if (!(hundredths >= 0 && hundredths <= Number.MAX_SAFE_INTEGER)) return `${hundredths / 100}`
  const whole = Math.floor(hundredths / 100)
  const fraction = hundredths - whole * 100
  if (fraction === 0) return `${whole}`
  return fraction % 10 === 0 ? `${whole}.${fraction / 10}` : `${whole}.${fraction < 10 ? '0' : ''}${fraction}`
}
