import { createServer } from 'node:net'
import { once } from 'node:events'
import { join } from 'node:path'
import t from 'tap'
import { BUNDLED_FIXTURES, loadFixtures } from '../../src/data/fixtures.js'
import type { CountingLine } from '../../src/contract/schemas.js'
import { describeStartFailure } from '../../src/cli/start-failure.js'
import { VERSION } from '../../src/util/version.js'
import { runCli, runCommand } from '../helpers/cli-process.js'
import { FixtureError, ListenError } from '../../src/errors/errors.js'

t.test('--port 0 prints one ready line with the URL, serves, and SIGTERM exits 0', async t => {
  const run = runCli(['--port', '0', '--log-level', 'silent', '--token', 'cli-token'])
  const url = await run.ready
  t.match(url, /^http:\/\/127\.0\.0\.1:\d+$/)
  // The bundled fixtures are served: the first line's camera answers with all its lines.
  const { lines } = await loadFixtures(BUNDLED_FIXTURES)
  const camera = (lines[0] as CountingLine).camera_id
  const response = await fetch(`${url}/nvr/v1/cameras/${camera}/counting_lines`, { headers: { authorization: 'Bearer cli-token' } })
  t.equal(response.status, 200)
  t.equal(((await response.json()) as { content: unknown[] }).content.length, lines.filter(line => line.camera_id === camera).length)
  run.child.kill('SIGTERM')
  t.equal(await run.exit, 0)
  t.equal(run.stdout(), `mock-nvr listening on ${url}\n`, 'silent logs leave only the ready line')
})

t.test('environment twins configure it, and SIGINT exits 0 too', async t => {
  const run = runCli([], { MOCK_NVR_PORT: '0', MOCK_NVR_HOST: '0.0.0.0', MOCK_NVR_LOG_LEVEL: 'info', MOCK_NVR_PRETTY_LOGS: 'false' }, 'from source')
  const url = await run.ready
  t.match(url, /^http:\/\/127\.0\.0\.1:\d+$/, 'on every interface, the URL shown is one a person can open')
  t.equal((await fetch(`${url}/healthz`)).status, 200)
  run.child.kill('SIGINT')
  t.equal(await run.exit, 0)
  t.match(run.stdout(), /"msg":"no --token configured: any non-empty bearer token is accepted"/)
  t.match(run.stdout(), /"msg":"serving counting lines"/)
  // Scripts find the ready line with `grep -m1 listening`: Fastify's lines, one per interface, would come first.
  t.strictSame(run.stdout().split('\n').filter(line => line.includes('listening')), [`mock-nvr listening on ${url} (host 0.0.0.0: every interface listens)`])
})

t.test('--help and --version print and exit 0', async t => {
  const help = await runCommand(['--help'])
  t.equal(help.code, 0)
  t.match(help.stdout, /Usage: mock-nvr \[options\]/)
  t.match(help.stdout, /MOCK_NVR_PORT/)
  const version = await runCommand(['--version'])
  t.equal(version.code, 0)
  t.equal(version.stdout, `${VERSION}\n`)
})

t.test('usage mistakes exit 2 with a message and no stack trace', async t => {
  for (const args of [['--colour'], ['--port', '70000']]) {
    const run = await runCommand(args)
    t.equal(run.code, 2, args.join(' '))
    t.match(run.stderr, /^mock-nvr: /)
    t.notMatch(run.stderr, /\n\s+at /)
  }
})

t.test('the process exits with the command\'s code', async t => {
  const run = runCli(['--colour'])
  t.equal(await run.exit, 2)
  t.equal(run.stderr(), 'mock-nvr: unknown flag --colour. Run mock-nvr --help for the flags.\n')
})

t.test('bad fixtures exit 1 naming the file, the JSON path and the problem', async t => {
  const dir = t.testdir({ 'bad.json': JSON.stringify({ counting_lines: [{ id: 'x' }] }) })
  const run = await runCommand(['--port', '0', '--fixtures', dir])
  t.equal(run.code, 1)
  t.match(run.stderr, `mock-nvr: Invalid fixtures:\n  ${join(dir, 'bad.json')}: /counting_lines/0/camera_id: is missing`)
  t.notMatch(run.stderr, /\n\s+at /)
})

t.test('a port in use exits 1 with a clear message', async t => {
  const blocker = createServer().listen(0, '127.0.0.1')
  await once(blocker, 'listening')
  t.teardown(() => blocker.close())
  const { port } = blocker.address() as { port: number }
  const run = await runCommand(['--port', String(port), '--log-level', 'silent'])
  t.equal(run.code, 1)
  t.equal(run.stderr, `mock-nvr: cannot listen: port ${port} on 127.0.0.1 is already in use\n`)
})

t.test('start failures are described in one sentence', async t => {
  t.equal(describeStartFailure(new FixtureError([{ file: 'a.json', path: '', message: 'oops' }])), 'Invalid fixtures:\n  a.json: oops')
  t.equal(describeStartFailure(new ListenError('EADDRNOTAVAIL', '192.0.2.1 is not an address of this machine')), 'cannot listen: 192.0.2.1 is not an address of this machine')
  t.equal(describeStartFailure(new Error('something odd')), 'cannot start: something odd')
})

t.test('a host that does not resolve is named with where it was given', async t => {
  t.strictSame(await runCommand(['--host', 'nosuch.invalid', '--log-level', 'silent']), { code: 1, stdout: '', stderr: 'mock-nvr: cannot resolve host nosuch.invalid given by --host\n' })
  t.strictSame(await runCommand(['--log-level', 'silent'], { MOCK_NVR_HOST: 'nosuch.invalid' }), { code: 1, stdout: '', stderr: 'mock-nvr: cannot resolve host nosuch.invalid given by MOCK_NVR_HOST\n' })
})
