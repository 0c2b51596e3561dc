import type { SinkIo } from '../../src/logging/log-sink.js'

function errno (code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(code), { code })
}

/** A file system that keeps what is written, and answers each write as the test scripts it. */
export function scriptedIo (answers: Array<'full' | 'gone' | number> = [], syncAnswers: Array<'full' | 'gone' | number> = []) {
  const written: Buffer[] = []
  let writes = 0
  let wrote = (): void => {}
  const keep = (buffers: Buffer[], answer: 'full' | 'gone' | number | undefined): number => {
    if (answer === 'full') throw errno('EAGAIN')
    if (answer === 'gone') throw errno('EPIPE')
    const data = Buffer.concat(buffers)
    const count = Math.min(answer ?? data.length, data.length)
    written.push(data.subarray(0, count))
    return count
  }
  const io: SinkIo = {
    writev: ((_fd: number, buffers: Buffer[], callback: (error: NodeJS.ErrnoException | null, written: number) => void) => {
      writes++
      let count = 0
      let error: NodeJS.ErrnoException | null = null
      try {
        count = keep(buffers, answers.shift())
      } catch (caught) {
        error = caught as NodeJS.ErrnoException
      }
      setImmediate(() => {
        callback(error, count)
        wrote()
      })
    }) as unknown as SinkIo['writev'],
    writeSync: (_fd, buffer) => keep([buffer], syncAnswers.shift())
  }
  return {
    io,
    text: () => Buffer.concat(written).toString(),
    writes: () => writes,
    /** Resolves when the next write has been answered. */
    written: () => new Promise<void>(resolve => { wrote = resolve })
  }
}
