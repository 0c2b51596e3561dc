import { once } from 'node:events'
import { connect } from 'node:net'
import t from 'tap'
import { parseCli } from '../../src/cli/args.js'
import { startMockNvr } from '../../src/index.js'
import { printed, runCli, runCommand } from '../helpers/cli-process.js'
import { AUTH, SAMPLE_DATA } from '../helpers/app.js'
import { UsageError } from '../../src/errors/errors.js'

t.test('a dropped connection really closes the socket, without a byte of answer', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA })
  t.teardown(() => nvr.close())
  nvr.injectFault({ drop: true, times: 1 })
  const socket = connect(nvr.port, '127.0.0.1')
  let received = ''
  socket.setEncoding('utf8').on('data', chunk => { received += chunk })
  socket.write(`GET /nvr/v1/cameras/cam-1/counting_lines HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH.authorization}\r\nConnection: keep-alive\r\n\r\n`)
  await once(socket, 'close')
  t.equal(received, '', 'not a byte came back')
  t.match(nvr.requests(), [{ status: null, fault: 'fault-1' }])
  const next = await fetch(`${nvr.url}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH })
  t.equal(next.status, 200, 'the next request is answered as usual')
})

t.test('through the CLI: the admin API with its env token, faults, and a delayed request that completes after SIGTERM', async t => {
  const cli = runCli(['--port', '0', '--log-level', 'debug', '--allow-prefer', '--latency', '1-2', '--journal-size', '50'], { MOCK_NVR_ADMIN_TOKEN: 'cli-admin-secret' })
  t.teardown(() => { cli.child.kill() })
  const url = await cli.ready
  await printed(cli, 'admin API on at /__admin/, for callers with the admin token; its dashboard at /__admin/ui/')
  const admin = { authorization: 'Bearer cli-admin-secret', 'content-type': 'application/json' }
  const injected = await fetch(`${url}/__admin/faults`, { method: 'POST', headers: admin, body: JSON.stringify({ status: 503, times: 1 }) })
  t.equal(injected.status, 201)
  const lines = `${url}/nvr/v1/cameras/cam-security-exit/counting_lines`
  const failed = await fetch(lines, { headers: AUTH })
  t.equal(failed.status, 503)
  t.equal(failed.headers.get('retry-after'), '1')
  t.equal((await fetch(lines, { headers: { authorization: 'Bearer cli-admin-secret' } })).status, 401, 'the admin token does not open the device API')

  const slow = fetch(lines, { headers: { ...AUTH, prefer: 'delay=1500' } })
  await printed(cli, '"delayMs":1500')
  cli.child.kill('SIGTERM')
  const answer = await slow
  t.equal(answer.status, 200, 'the request in flight is answered')
  t.equal(((await answer.json()) as { content: unknown[] }).content.length, 2)
  t.equal(await cli.exit, 0)
  t.notMatch(cli.stdout(), 'cli-admin-secret', 'the admin token is never logged')
  t.match(cli.stdout(), '"msg":"admin: fault-1 injected"')
  t.match(cli.stdout(), '"msg":"every API request is delayed"')
  t.match(cli.stdout(), '"msg":"Prefer headers may ask for a status or a delay (code=…, delay=…)"')
})

t.test('--latency, --allow-prefer, --admin-token and --journal-size are read from flags and their twins', async t => {
  t.match(parseCli(['--latency', '200'], {}), { options: { latency: { min: 200, max: 200 } } }, 'read once into a range, and kept one')
  t.match(parseCli(['--latency', '100-800'], {}), { options: { latency: { min: 100, max: 800 } } })
  t.match(parseCli([], { MOCK_NVR_LATENCY: '50 - 60' }), { options: { latency: { min: 50, max: 60 } } })
  t.match(parseCli(['--allow-prefer'], {}), { options: { allowPrefer: true } })
  t.match(parseCli([], { MOCK_NVR_ALLOW_PREFER: 'true' }), { options: { allowPrefer: true } })
  t.match(parseCli(['--admin-token', 'a'], { MOCK_NVR_ADMIN_TOKEN: 'b' }), { options: { adminToken: 'a' } })
  t.match(parseCli([], { MOCK_NVR_ADMIN_TOKEN: 'b' }), { options: { adminToken: 'b' } })
  t.match(parseCli(['--journal-size', '0'], {}), { options: { journalSize: 0 } })
  t.match(parseCli([], { MOCK_NVR_JOURNAL_SIZE: '20' }), { options: { journalSize: 20 } })
})

t.test('a bad --latency is a usage error naming the flag or variable, exit code 2', async t => {
  t.throws(() => parseCli(['--latency', 'fast'], {}), new UsageError("--latency must be milliseconds like 200, or a range like 100-800, not 'fast'"))
  t.throws(() => parseCli([], { MOCK_NVR_LATENCY: '800-100' }), new UsageError('MOCK_NVR_LATENCY must go from low to high, not from 800 to 100'))
  t.throws(() => parseCli(['--latency', '400000'], {}), new UsageError("--latency must be at most 300000 milliseconds, not '400000'"))
  t.throws(() => parseCli(['--latency', '-5'], {}), { name: 'UsageError' })
  const run = await runCommand(['--latency', '100-'])
  t.equal(run.code, 2)
  t.equal(run.stderr, "mock-nvr: --latency must be milliseconds like 200, or a range like 100-800, not '100-'. Run mock-nvr --help for the flags.\n")
  const badSize = await runCommand(['--journal-size', 'many'])
  t.equal(badSize.code, 2)
})

t.test('startMockNvr checks latency like the CLI does', async t => {
  await t.rejects(startMockNvr({ latency: { min: 9, max: 1 } }), { name: 'OptionsError', message: 'option latency must go from low to high, not from 9 to 1' })
  await t.rejects(startMockNvr({ latency: 'slow' as never }), {
    name: 'OptionsError', message: 'option latency must be milliseconds from 0 to 300000, or { "min": …, "max": … } for a random delay in that range, not "slow"'
  })
  await t.rejects(startMockNvr({ journalSize: -1 }), { name: 'OptionsError', message: 'option journalSize must be a whole number from 0 to 1000000, not -1' })
  const nvr = await startMockNvr({ latency: 0 })
  t.teardown(() => nvr.close())
})
