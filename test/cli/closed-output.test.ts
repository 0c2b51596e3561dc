import { spawn } from 'node:child_process'
import { EventEmitter, once } from 'node:events'
import t from 'tap'
import { endQuietlyWhenClosed } from '../../src/cli/closed-output.js'
import { CLI_UNDER_TEST } from '../helpers/cli-process.js'
import { untracked } from '../helpers/untracked.js'

/** Runs the CLI with the reading end of its stdout (or stderr) closed before it writes: `mock-nvr … | true`. */
async function withClosedOutput (args: string[], closed: 'stdout' | 'stderr' = 'stdout'): Promise<{ code: number | null, other: string }> {
  // The bundle, outside the runner's process tracking: what runs here is covered by the in-process tests below.
  const child = spawn(...untracked(process.execPath, [CLI_UNDER_TEST, ...args]), { env: { ...process.env, FORCE_COLOR: '0' } })
  // Node takes far longer to load the CLI than this takes, so the pipe is closed before its first write.
  child[closed].destroy()
  let other = ''
  child[closed === 'stdout' ? 'stderr' : 'stdout'].setEncoding('utf8').on('data', chunk => { other += chunk })
  const [code] = await once(child, 'exit') as [number | null]
  return { code, other }
}

t.test('a one-shot command whose reader is gone ends quietly with its own exit code', async t => {
  const runs = await Promise.all([['--version'], ['--help'], ['openapi'], ['verify', '--help']].map(async args => [args, await withClosedOutput(args)] as const))
  for (const [args, { code, other }] of runs) t.strictSame({ code, stderr: other }, { code: 0, stderr: '' }, `mock-nvr ${args.join(' ')} | true`)
})

t.test('a usage error whose stderr is gone still exits 2, without a stack trace on stdout', async t => {
  t.strictSame(await withClosedOutput(['--port', 'x'], 'stderr'), { code: 2, other: '' })
})

t.test('a closed output of a running server, and any other error, stay errors for the server\'s stop to handle', async t => {
  const pipeClosed = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })
  const output = new EventEmitter()
  let serving = false
  endQuietlyWhenClosed(output, () => serving)
  t.doesNotThrow(() => output.emit('error', pipeClosed))
  t.throws(() => output.emit('error', Object.assign(new Error('write EBADF'), { code: 'EBADF' })), { code: 'EBADF' })
  serving = true
  t.throws(() => output.emit('error', pipeClosed), { code: 'EPIPE' })
})
