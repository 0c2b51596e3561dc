import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { closeSync, openSync, readFileSync, writev } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { LogSink, type SinkIo } from '../../src/logging/log-sink.js'
import { SOURCE_FLAGS } from '../helpers/cli-process.js'
import { scriptedIo } from '../helpers/scripted-io.js'

const LIMIT = 1024 * 1024

t.test('the lines of one turn go out in one write, in order, whatever their length and characters', async t => {
  // In the test's own folder, which tap removes after the test: nothing is left in the temp folder.
  const path = join(t.testdir(), 'sink.log')
  const fd = openSync(path, 'w')
  t.teardown(() => closeSync(fd))
  let writes = 0
  const sink = new LogSink(fd, LIMIT, { writev: ((...args: Parameters<typeof writev>) => { writes++; return writev(...args) }) as typeof writev, writeSync: () => 0 })
  const lines = ['{"a":1}\n', `${'ü'.repeat(30_000)}\n`, '{"b":"✓ 😀"}\n', `${'x'.repeat(70_000)}\n`, ...Array.from({ length: 500 }, (_, i) => `{"line":${i}}\n`)]
  for (const line of lines) sink.write(line)
  await sink.flushed()
  t.equal(readFileSync(path, 'utf8'), lines.join(''))
  t.equal(writes, 1)
  sink.write('{"later":true}\n')
  await sink.flushed()
  t.equal(readFileSync(path, 'utf8'), `${lines.join('')}{"later":true}\n`)
  t.equal(writes, 2)
  t.equal(sink.dropped, 0)
})

t.test('nothing to write: flushed resolves at once', async t => {
  const { io, writes } = scriptedIo()
  await new LogSink(1, LIMIT, io).flushed()
  t.equal(writes(), 0)
})

t.test('lines go out by themselves shortly, those written during a write after it, in order', async t => {
  const { io, text, writes, written } = scriptedIo()
  const sink = new LogSink(1, LIMIT, io)
  sink.write('one\n')
  await written()
  t.equal(text(), 'one\n', 'written without being asked')
  sink.write('two\n')
  const first = sink.flushed()
  sink.write('three\n')
  sink.write('four\n')
  await Promise.all([first, sink.flushed()])
  t.equal(text(), 'one\ntwo\nthree\nfour\n')
  t.equal(writes(), 3, 'what came during the second write went out at once, as it was waited for')
  sink.write('five\n')
  await written()
  t.equal(text(), 'one\ntwo\nthree\nfour\nfive\n')
})

t.test('a partial write is finished, and a full pipe is tried again, before any later line', async t => {
  const { io, text } = scriptedIo([3, 'full', 2])
  const sink = new LogSink(1, LIMIT, io)
  sink.write('first line\n')
  sink.write('second line\n')
  const started = sink.flushed()
  sink.write('third line\n')
  await Promise.all([started, sink.flushed()])
  t.equal(text(), 'first line\nsecond line\nthird line\n')
})

t.test('a partial write that ends past a whole line of its own is resumed at the right byte', async t => {
  // A line too long for a chunk is a buffer of its own: the write carries the chunk before it, then that line.
  const { io, text } = scriptedIo([5])
  const sink = new LogSink(1, LIMIT, io)
  const long = `${'z'.repeat(30_000)}\n`
  sink.write('ab\n')
  sink.write(long)
  sink.write('cd\n')
  await sink.flushed()
  t.equal(text(), `ab\n${long}cd\n`)
})

t.test('a line that comes during a write goes out by itself after it, with nobody waiting', async t => {
  const { io, text, writes, written } = scriptedIo()
  const sink = new LogSink(1, LIMIT, {
    ...io,
    writev: ((...args: Parameters<SinkIo['writev']>) => {
      if (writes() === 0) sink.write('during\n')
      return (io.writev as (...args: Parameters<SinkIo['writev']>) => void)(...args)
    }) as SinkIo['writev']
  })
  sink.write('first\n')
  await written()
  t.equal(text(), 'first\n')
  await written()
  t.equal(text(), 'first\nduring\n')
  t.equal(writes(), 2)
})

t.test('past the limit waiting, lines are dropped and counted, and writing goes on once the file is read', async t => {
  const { io, text } = scriptedIo(['full'])
  const sink = new LogSink(1, 20, io)
  sink.write('0123456789\n')
  sink.write('abcdefghij\n')
  t.equal(sink.dropped, 1)
  await sink.flushed()
  sink.write('after\n')
  await sink.flushed()
  t.equal(text(), '0123456789\nafter\n')
})

t.test('once lines go out again, the sink says how many were dropped, in its own line after them', async t => {
  const { io, text } = scriptedIo(['full', 'full'])
  const sink = new LogSink(1, 20, io)
  const told: number[] = []
  sink.onDropped = count => {
    told.push(count)
    sink.write(`dropped ${count}\n`)
  }
  sink.write('0123456789\n')
  for (const line of ['x\n', 'y\n', 'abcdefghij\n', '0123456789\n']) sink.write(line)
  t.equal(sink.dropped, 2)
  await sink.flushed()
  t.strictSame(told, [2], 'told once, when a write went through')
  t.equal(text(), '0123456789\nx\ny\ndropped 2\n')
})

t.test('once the file is gone, lines are dropped and nothing throws', async t => {
  const { io, text, writes } = scriptedIo(['gone'])
  const sink = new LogSink(1, LIMIT, io)
  sink.write('lost\n')
  await sink.flushed()
  sink.write('dropped\n')
  await sink.flushed()
  t.equal(text(), '')
  t.equal(writes(), 1)
  t.equal(sink.dropped, 1)
})

t.test('what is left at exit is written synchronously: partly, after a full pipe, or not at all once the file is gone', async t => {
  const left = scriptedIo([], [4, 'full'])
  const sink = new LogSink(1, LIMIT, left.io)
  sink.write('left at exit\n')
  sink.writeLeftSync()
  t.equal(left.text(), 'left at exit\n')
  t.equal(left.writes(), 0, 'written by writeSync alone')
  await sink.flushed()
  t.equal(left.writes(), 0, 'nothing is left for a later write')

  const gone = scriptedIo([], ['gone'])
  const broken = new LogSink(1, LIMIT, gone.io)
  broken.write('lost\n')
  broken.writeLeftSync()
  t.equal(gone.text(), '')
  broken.write('dropped\n')
  t.equal(broken.dropped, 1)
})

t.test('a process that exits right after logging still writes every line', async t => {
  const sink = fileURLToPath(new URL('../../src/logging/log-sink.ts', import.meta.url))
  const script = `import { LogSink } from ${JSON.stringify(sink)}
const sink = new LogSink(1, 1 << 20)
for (let i = 0; i < 1000; i++) sink.write('line ' + i + '\\n')
process.exit(0)`
  const child = spawn(process.execPath, [...SOURCE_FLAGS, '--input-type=module', '-e', script])
  let stdout = ''
  child.stdout.setEncoding('utf8').on('data', chunk => { stdout += chunk })
  const [code] = await once(child, 'exit')
  t.equal(code, 0)
  t.equal(stdout, Array.from({ length: 1000 }, (_, i) => `line ${i}\n`).join(''))
})
