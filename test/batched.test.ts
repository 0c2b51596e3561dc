// The test files named *.batched.test.ts, one after another in this one process. A test process costs about two
// CPU seconds before its first test (tsx, tap, the runner's coverage tracking), more than most of these files take
// to run, and most of the suite's time on two cores went to that. A file is batched when its tests take at most a
// second or two and leave the process as they found it: no signal handlers, no process.env, no hooks on the root
// test (the last test here checks the first two). `npx tap test/<folder>/<name>.batched.test.ts` runs one alone.
import { readdir } from 'node:fs/promises'
import t from 'tap'

const folder = new URL('./', import.meta.url)
const files = (await readdir(folder, { recursive: true })).filter(name => name.endsWith('.batched.test.ts')).sort()

const PROCESS_EVENTS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'uncaughtException', 'unhandledRejection'] as const
const processState = () => ({
  env: { ...process.env },
  listeners: Object.fromEntries(PROCESS_EVENTS.map(event => [event, process.listenerCount(event)]))
})
const before = processState()

// .taprc's timeout is for one file; this process runs some eighty.
t.setTimeout(600_000)
t.ok(files.length > 0, `${files.length} batched test files`)
for (const file of files) await import(new URL(file, folder).href)

t.test('the batched files leave the process as they found it', async t => {
  t.strictSame(processState(), before)
})
