import { join } from 'node:path'
import t from 'tap'
import { parseCli } from '../../src/cli/args.js'
import { printed, runCli, runCommand } from '../helpers/cli-process.js'
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
  const cli = runCli(['--port', '0', '--schedule', join(dir, 'schedule.json')])
  t.teardown(() => { cli.child.kill() })
  await printed(cli, 'mock-nvr ready at ')
  t.match(cli.stdout(), /^mock-nvr ready at http:\/\/127\.0\.0\.1:\d+: the device starts offline, by its schedule, and refuses connections until its health changes$/m)
  t.notMatch(cli.stdout(), /listening on/, 'no line promises a port that refuses')
  // Nothing listens and no timer waits: only the mock itself may hold the process.
  await new Promise(resolve => setTimeout(resolve, 3000))
  t.equal(cli.child.exitCode, null, 'still running 3 s later')
  cli.child.kill('SIGTERM')
  t.equal(await cli.exit, 0)
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
