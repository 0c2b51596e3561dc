import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import t, { type Test } from 'tap'
import { SOURCE_FLAGS } from '../helpers/cli-process.js'
import { within } from '../helpers/bounded.js'

// The stops a serving process makes on its own, in a process of its own, as src/cli.ts sets them up: a stdout
// whose reader is gone, an unhandled rejection, and a close that outlasts the grace period.
const HARNESS = fileURLToPath(new URL('../helpers/graceful-stop-harness.ts', import.meta.url))
/** The harness started and ready: its process, its stderr so far, and its exit code to come. */
async function start (t: Test, mode: 'closes' | 'hangs') {
  const child = spawn(process.execPath, [...SOURCE_FLAGS, HARNESS, mode], { stdio: ['pipe', 'pipe', 'pipe'] })
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL') })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
  const exit = once(child, 'exit').then(([code]) => code as number | null)
  let stdout = ''
  await within('"ready" on stdout', new Promise<void>(resolve => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
      if (stdout.includes('ready\n')) resolve()
    })
  }))
  const lines = () => stderr.split('\n').filter(line => line !== '').map(line => JSON.parse(line) as { msg: string, err?: { code?: string, message: string }, signal?: string })
  return { child, exit, lines }
}

t.test('a stdout whose reader is gone while serving: the error is logged and the process closes and exits 1', async t => {
  const { child, exit, lines } = await start(t, 'closes')
  child.stdout.destroy()
  child.stdin.write('w')
  t.equal(await within('exit after the write to a closed stdout', exit), 1)
  t.match(lines(), [{ msg: 'stopping after an unexpected error', err: { code: 'EPIPE' } }])
})

t.test('a promise rejected and never awaited: logged, closed, exit 1', async t => {
  const { child, exit, lines } = await start(t, 'closes')
  child.stdin.write('r')
  t.equal(await within('exit after the unhandled rejection', exit), 1)
  t.match(lines(), [{ msg: 'stopping after an unexpected error', err: { message: 'a promise nobody awaited' } }])
})

t.test('a close that outlasts the grace period exits 1 once the period is over', async t => {
  const { child, exit, lines } = await start(t, 'hangs')
  child.kill('SIGTERM')
  t.equal(await within('exit at the end of the grace period', exit), 1, 'the close never ended: only the grace period could end the process')
  t.match(lines(), [{ msg: 'stopping', signal: 'SIGTERM' }])
})

t.test('a close that ends in time exits 0', async t => {
  const { child, exit } = await start(t, 'closes')
  child.kill('SIGTERM')
  t.equal(await within('exit after the close', exit), 0)
})
