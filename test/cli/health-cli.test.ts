import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { parseCli } from '../../src/cli/args.js'
import { CLI_UNDER_TEST, printed, runCli, runCommand } from '../helpers/cli-process.js'
import { until, within } from '../helpers/bounded.js'
import { untracked } from '../helpers/untracked.js'

const LOOP_REPORT = fileURLToPath(new URL('../helpers/loop-report.js', import.meta.url))
import { runCommandLine } from '../../src/cli/main.js'
import type { MockNvr } from '../../src/start/start-mock-nvr.js'
import { UsageError } from '../../src/errors/errors.js'

t.test('--schedule, --drift and --clock are read, with their twins, and checked', async t => {
  t.match(parseCli(['--schedule', 'schedule.json', '--drift', '60000', '--clock', 'manual'], {}), { options: { schedule: 'schedule.json', drift: 60000, clock: 'manual' } })
  t.match(parseCli([], { MOCK_NVR_CLOCK: 'manual', MOCK_NVR_DRIFT: '500' }), { options: { clock: 'manual', drift: 500 } })
  t.throws(() => parseCli(['--clock', 'fast'], {}), new UsageError('--clock must be "real" or "manual", not \'fast\''))
  t.throws(() => parseCli(['--drift', '0'], {}), new UsageError('--drift must be a whole number from 1 to 2147483647, not \'0\''))
})

t.test('a bad schedule file stops the start, naming the file, the JSON path and the problem', async t => {
  const dir = t.testdir({ 'schedule.json': JSON.stringify({ health: [{ at: 1000, state: 'offline' }, { at: 500, state: 'online' }] }) })
  const { code, stderr } = await runCommand(['--port', '0', '--schedule', join(dir, 'schedule.json')])
  t.equal(code, 1)
  t.equal(stderr, `mock-nvr: Invalid schedule:\n  ${join(dir, 'schedule.json')}: /health/1/at: must come after the previous step's at (1000), not 500\n`)
})

t.test('through the CLI: a schedule walked with --clock manual and POST /__admin/clock', async t => {
  const dir = t.testdir({ 'schedule.json': JSON.stringify({ health: [{ at: 5000, state: 'rebooting', down: 1000, starting: 2000 }] }) })
  const cli = runCli(['--port', '0', '--clock', 'manual', '--schedule', join(dir, 'schedule.json'), '--admin-token', 'cli-admin'])
  t.teardown(() => { cli.child.kill() })
  const url = await cli.ready
  await printed(cli, 'the clock is manual')
  const admin = { authorization: 'Bearer cli-admin', 'content-type': 'application/json' }
  const advance = (ms: number) => fetch(`${url}/__admin/clock`, { method: 'POST', headers: admin, body: JSON.stringify({ advance: ms }) })
  t.equal((await advance(6000)).status, 200)
  const starting = await fetch(`${url}/healthz`)
  t.equal(starting.status, 503)
  t.equal(starting.headers.get('retry-after'), '2')
  const health = await (await fetch(`${url}/__admin/health`, { headers: admin })).json() as { content: { state: string, phase: string } }
  t.match(health.content, { state: 'rebooting', phase: 'starting' })
  await advance(2000)
  t.equal((await fetch(`${url}/healthz`)).status, 200)
  cli.child.kill('SIGTERM')
  t.equal(await cli.exit, 0)
})

t.test('a schedule that starts offline: the ready line says so, and the process lives until it is stopped', async t => {
  const dir = t.testdir({ 'schedule.json': JSON.stringify({ health: [{ at: 0, state: 'offline' }] }) })
  // The CLI with a preload that says, when asked, what holds its event loop, or that the loop ran empty.
  const child = spawn(...untracked(process.execPath, [`--import=${LOOP_REPORT}`, CLI_UNDER_TEST, '--port', '0', '--schedule', join(dir, 'schedule.json')]))
  t.teardown(() => { child.kill() })
  let [stdout, stderr] = ['', '']
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk })
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
  const exit = once(child, 'exit').then(([code]) => code as number | null)
  await until('the ready line', () => /^mock-nvr ready at .*\n/m.test(stdout))
  t.match(stdout, /^mock-nvr ready at http:\/\/127\.0\.0\.1:\d+: the device starts offline, by its schedule, and refuses connections until its health changes$/m)
  t.notMatch(stdout, /listening on/, 'no line promises a port that refuses')
  // Nothing listens and no timer of the schedule waits: only the mock itself may hold the process. Asked once
  // its start is over, it answers: its loop is held, by the mock's own keep-alive timer, and never ran empty.
  child.kill('SIGUSR2')
  await until('the process\'s report of its event loop', () => /loop: \[.*\]\n/.test(stderr) || stderr.includes('loop: empty') || child.exitCode !== null)
  t.notMatch(stderr, 'loop: empty', 'the loop never ran empty')
  t.equal(child.exitCode, null, 'still running after its start')
  t.ok((JSON.parse(/loop: (\[.*\])\n/.exec(stderr)?.[1] ?? '[]') as string[]).includes('Timeout'), 'held by a timer of its own')
  child.kill('SIGTERM')
  t.equal(await within('the exit on SIGTERM', exit), 0)
})

t.test('--clock manual: PUT /__admin/health of a state that would close the shared port is refused, and the process stays', async t => {
  const cli = runCli(['--port', '0', '--clock', 'manual', '--admin-token', 'dev'])
  t.teardown(() => { cli.child.kill() })
  const url = await cli.ready
  const admin = { authorization: 'Bearer dev', 'content-type': 'application/json' }
  const refused = await fetch(`${url}/__admin/health`, { method: 'PUT', headers: admin, body: JSON.stringify({ state: 'offline', for: 60000 }) })
  t.equal(refused.status, 409)
  t.match(await refused.json(), { result: { errorCode: 'HEALTH_LOCKS_OUT', errorMessage: /--devices 1/ } })
  t.equal((await fetch(`${url}/healthz`)).status, 200, 'still serving')
  cli.child.kill('SIGTERM')
  t.equal(await cli.exit, 0)
})

t.test('the ready line of a device that starts offline names when its schedule brings it back', async t => {
  const dir = t.testdir({
    'until.json': JSON.stringify({ health: [{ at: 0, state: 'offline' }, { at: 5000, state: 'online' }] }),
    'forever.json': JSON.stringify({ health: [{ at: 0, state: 'offline' }] })
  })
  for (const [file, until] of [['until.json', /until \d{4}-\d\d-\d\dT[\d:.]+Z$/], ['forever.json', /until its health changes$/]] as const) {
    let stdout = ''
    let nvr: MockNvr | undefined
    const code = await runCommandLine(['--port', '0', '--clock', 'manual', '--log-level', 'silent', '--schedule', join(dir, file)], {
      env: {},
      stdout: { write: (text: string) => { stdout += text } },
      stderr: { write: () => {} },
      stopSignal: () => new AbortController().signal,
      serving: served => { nvr = served as MockNvr }
    })
    t.equal(code, undefined, 'serving')
    await nvr?.close()
    t.match(stdout.trim(), new RegExp(`^mock-nvr ready at http://127\\.0\\.0\\.1:\\d+: the device starts offline, by its schedule, and refuses connections ${until.source}`), file)
  }
})
