import { rename, writeFile } from 'node:fs/promises'
import { Writable } from 'node:stream'
import type { FastifyBaseLogger } from 'fastify'
import { pino } from 'pino'

export interface LogRecord {
  level: number
  msg: string
  [field: string]: unknown
}

type Predicate = (record: LogRecord) => boolean

/** A pino logger whose records a test can read, and wait for instead of sleeping. */
export function captureLogs (level: 'info' | 'trace' = 'info') {
  const records: LogRecord[] = []
  const waiters = new Set<{ matches: Predicate, resolve: (record: LogRecord) => void }>()
  const stream = new Writable({
    write (chunk: Buffer, _encoding, done) {
      const record = JSON.parse(chunk.toString()) as LogRecord
      records.push(record)
      for (const waiter of waiters) {
        if (!waiter.matches(record)) continue
        waiters.delete(waiter)
        waiter.resolve(record)
      }
      done()
    }
  })
  const logger: FastifyBaseLogger = pino({ level }, stream)
  return {
    logger,
    records,
    /** The next record that matches, from now on: call it before the action that logs. */
    next (matches: Predicate): Promise<LogRecord> {
      return new Promise(resolve => waiters.add({ matches, resolve }))
    }
  }
}

/** Writes a file the way many editors save: a temporary file renamed over the old one, in one step. */
export async function saveFile (path: string, text: string): Promise<void> {
  await writeFile(`${path}.tmp`, text)
  await rename(`${path}.tmp`, path)
}
