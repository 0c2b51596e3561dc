import { writeSync, writev } from 'node:fs'
import { clearTimeout, setTimeout } from 'node:timers'

const CHUNK_SIZE = 64 * 1024
// UTF-8 takes at most three bytes for one UTF-16 unit, so a line of n units fits in 3n bytes.
const MAX_BYTES_PER_UNIT = 3
const RETRY_AFTER_MS = 10
// Lines wait this long to go out together: a write hands work to another thread, which on a busy core
// costs more than the lines it carries, so one write per request would cost more than the request.
const WRITE_EVERY_MS = 10
const EXIT_ATTEMPTS = 200

/** The two calls a sink makes of the file system; a test gives its own. */
export interface SinkIo {
  writev: typeof writev
  writeSync: (fd: number, buffer: Buffer) => number
}

const sinksWithLines = new Set<LogSink>()
let exitListener: (() => void) | undefined

/**
 * Where the JSON log lines go: each line is copied into a 64 KB chunk as it comes, and what came in ten
 * milliseconds goes out in one write. pino's own destination costs a few microseconds a line, which at the
 * default level every request pays; this costs a copy. It never throws and never blocks: should the file
 * stop being read, lines past `limit` waiting bytes are dropped rather than memory grown, and should it
 * close, lines are dropped from then on. What is left when the process exits is written then.
 */
export class LogSink {
  /** Lines dropped because too much was waiting or the file is gone. */
  dropped = 0
  /** Told how many lines were dropped for want of room, once lines go out again. */
  onDropped: ((count: number) => void) | undefined
  #droppedUnsaid = 0
  readonly #fd: number
  readonly #limit: number
  readonly #io: SinkIo
  #chunk = Buffer.allocUnsafe(CHUNK_SIZE)
  #filled = 0
  /** Filled chunks, in order, not yet handed to a write. */
  #waiting: Buffer[] = []
  #waitingBytes = 0
  #writing = false
  #due: NodeJS.Timeout | undefined
  #broken = false
  #whenDone: Array<() => void> = []

  constructor (fd: number, limit: number, io: SinkIo = { writev, writeSync }) {
    this.#fd = fd
    this.#limit = limit
    this.#io = io
  }

  /** Takes one line; the stream interface pino writes to. */
  write (line: string): boolean {
    const most = line.length * MAX_BYTES_PER_UNIT
    if (this.#broken) {
      this.dropped++
      return true
    }
    if (this.#waitingBytes + this.#filled + line.length > this.#limit) {
      this.dropped++
      this.#droppedUnsaid++
      return true
    }
    if (most > CHUNK_SIZE - this.#filled) {
      this.#seal()
      if (most > CHUNK_SIZE) this.#queue(Buffer.from(line))
    }
    if (most <= CHUNK_SIZE) this.#filled += this.#chunk.write(line, this.#filled)
    // Lines arriving while a write is due or under way are covered by it, and the sink is listed already.
    if (this.#due === undefined && !this.#writing) {
      sinksWithLines.add(this)
      listenForExit()
      this.#due = setTimeout(this.#writeDue, WRITE_EVERY_MS)
    }
    return true
  }

  /** Resolves once every line taken so far is written (or dropped); what waits for its time goes now. */
  flushed (): Promise<void> {
    if (!sinksWithLines.has(this)) return Promise.resolve()
    const done = new Promise<void>(resolve => this.#whenDone.push(resolve))
    if (this.#due !== undefined) {
      clearTimeout(this.#due)
      this.#writeDue()
    }
    return done
  }

  /** Writes what is left, at once and synchronously: for the process's exit, when no callback would run. */
  writeLeftSync (): void {
    clearTimeout(this.#due)
    this.#due = undefined
    this.#seal()
    const data = Buffer.concat(this.#waiting)
    this.#waiting = []
    this.#waitingBytes = 0
    let offset = 0
    for (let attempt = 0; attempt < EXIT_ATTEMPTS && offset < data.length && !this.#broken; attempt++) {
      try {
        offset += this.#io.writeSync(this.#fd, data.subarray(offset))
      } catch (error) {
        // A non-blocking pipe that is full: wait a little for its reader, a bounded number of times.
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_AFTER_MS)
        else this.#broken = true
      }
    }
    this.#done()
  }

  #seal (): void {
    if (this.#filled === 0) return
    this.#queue(this.#chunk.subarray(0, this.#filled))
    this.#chunk = Buffer.allocUnsafe(CHUNK_SIZE)
    this.#filled = 0
  }

  #queue (buffer: Buffer): void {
    this.#waiting.push(buffer)
    this.#waitingBytes += buffer.length
  }

  readonly #writeDue = (): void => {
    this.#due = undefined
    this.#writeWaiting()
  }

  /** Hands every waiting line to one write; only when something waits and the file is not gone. */
  #writeWaiting (): void {
    this.#seal()
    const buffers = this.#waiting
    const total = this.#waitingBytes
    this.#waiting = []
    this.#waitingBytes = 0
    this.#writing = true
    this.#io.writev(this.#fd, buffers, (error, written) => {
      // A non-blocking pipe that is full (EAGAIN) is tried again shortly; any other error means it is gone.
      const full = error?.code === 'EAGAIN'
      if (error !== null && !full) this.#broken = true
      const done = error === null ? written : 0
      // Whatever was not written goes first next time.
      if (done < total) {
        this.#waiting.unshift(...unwritten(buffers, done))
        this.#waitingBytes += total - done
      }
      if (error === null && this.#droppedUnsaid > 0) {
        const count = this.#droppedUnsaid
        this.#droppedUnsaid = 0
        this.onDropped?.(count)
      }
      const next = (): void => {
        this.#writing = false
        this.#writeNext()
      }
      // Still writing while waiting to retry, so that no other write overtakes this one.
      if (full) setTimeout(next, RETRY_AFTER_MS)
      else next()
    })
  }

  /** After a write: done, or the next write now for someone waiting on it, or when it is due. */
  #writeNext (): void {
    if (this.#broken || (this.#filled === 0 && this.#waiting.length === 0)) return this.#done()
    if (this.#whenDone.length > 0) this.#writeWaiting()
    else this.#due = setTimeout(this.#writeDue, WRITE_EVERY_MS)
  }

  #done (): void {
    if (this.#broken) {
      this.#waiting = []
      this.#waitingBytes = 0
      this.#filled = 0
    }
    sinksWithLines.delete(this)
    for (const resolve of this.#whenDone.splice(0)) resolve()
  }
}

/** The buffers less their first `written` bytes. */
function unwritten (buffers: Buffer[], written: number): Buffer[] {
  const rest: Buffer[] = []
  for (const buffer of buffers) {
    if (written >= buffer.length) {
      written -= buffer.length
      continue
    }
    rest.push(written > 0 ? buffer.subarray(written) : buffer)
    written = 0
  }
  return rest
}

function listenForExit (): void {
  if (exitListener !== undefined) return
  exitListener = function writeLogsLeft () {
    for (const sink of sinksWithLines) sink.writeLeftSync()
  }
  process.once('exit', exitListener)
}
