import crypto from 'node:crypto'
import t from 'tap'
import { TokenPolicy } from '../../src/wire/token-policy.js'
import { startMockNvr } from '../../src/index.js'
import { spyOnBuiltin } from '../helpers/builtin-spy.js'
import { runCli } from '../helpers/cli-process.js'
import { SAMPLE_DATA } from '../helpers/app.js'
import { ACCEPTED_TOKEN, ADMIN_TOKEN, REFUSED_TOKEN, SECRETS } from '../helpers/hostile-requests.js'
import { captureLogs } from '../helpers/log-capture.js'
import { exchange } from '../helpers/raw-http.js'

/** Where the requests below aim. A new area of the server (such as an admin API) adds its paths here. */
const TARGETS = ['/nvr/v1/cameras/cam-1/counting_lines', '/nvr/v1/cameras/cam-1/counting_lines/line-1', '/nvr/v1/cameras/nope/counting_lines', '/healthz', '/openapi.json', '/docs', '/nothing', '/__admin/requests', '/__admin/nothing']

const get = (target: string, headers: string, method = 'GET') => `${method} ${target} HTTP/1.1\r\nHost: x\r\n${headers}\r\n`
const auth = (value: string) => `Authorization: ${value}\r\n`

/** Every kind of request a token can ride on: accepted, refused, malformed, and refused before routing. */
const REQUEST_KINDS: Record<string, (target: string) => string | Buffer> = {
  accepted: target => get(target, auth(`Bearer ${ACCEPTED_TOKEN}`)),
  admin: target => get(target, auth(`Bearer ${ADMIN_TOKEN}`)),
  refused: target => get(target, auth(`Bearer ${REFUSED_TOKEN}`)),
  'two tokens': target => get(target, auth(`Bearer ${ACCEPTED_TOKEN} ${REFUSED_TOKEN}`)),
  'another scheme': target => get(target, auth(`Basic ${ACCEPTED_TOKEN}`)),
  'a bare token': target => get(target, auth(ACCEPTED_TOKEN)),
  'non-ASCII bytes': target => Buffer.from(get(target, auth(`Bearer ${REFUSED_TOKEN}\u00e9\u00ff`)), 'latin1'),
  'doubled header': target => get(target, auth(`Bearer ${REFUSED_TOKEN}`) + auth(`Bearer ${ACCEPTED_TOKEN}`)),
  'headers too large (431)': target => get(target, auth(`Bearer ${ACCEPTED_TOKEN}`) + `X-Filler: ${'x'.repeat(9000)}\r\n`),
  'malformed URL (400)': target => get(`${target}%zz`, auth(`Bearer ${ACCEPTED_TOKEN}`)),
  'not HTTP (400)': () => `HELLO ${ACCEPTED_TOKEN}\r\n${auth(`Bearer ${REFUSED_TOKEN}`)}\r\n`,
  'another method (405)': target => get(target, auth(`Bearer ${ACCEPTED_TOKEN}`), 'DELETE'),
  'no Host': target => `GET ${target} HTTP/1.1\r\n${auth(`Bearer ${ACCEPTED_TOKEN}`)}\r\n`,
  preflight: target => get(target, `Origin: http://app.example\r\nAccess-Control-Request-Method: GET\r\n${auth(`Bearer ${ACCEPTED_TOKEN}`)}`, 'OPTIONS')
}

t.test('no token shows in any answer or any log line, whatever the request', async t => {
  const logs = captureLogs('trace')
  const nvr = await startMockNvr({ data: SAMPLE_DATA, tokens: [ACCEPTED_TOKEN], adminToken: ADMIN_TOKEN, maxHeaderSize: 8192, headersTimeout: 200, logger: logs.logger })
  // The API page is loaded by its first request, which, answered later, a client that half-closes does not get.
  await nvr.app.inject('/docs')
  for (const [kind, request] of Object.entries(REQUEST_KINDS)) {
    for (const target of TARGETS) {
      const { received } = await exchange(nvr.port, request(target))
      t.ok(received.length > 0, `${kind} ${target} is answered`)
      for (const secret of SECRETS) t.notOk(received.includes(secret), `${kind} ${target}: no token in the answer`)
    }
  }
  // Cut off by the headers time-out (408) while the token was already sent.
  const { received } = await exchange(nvr.port, `GET /healthz HTTP/1.1\r\n${auth(`Bearer ${ACCEPTED_TOKEN}`)}`, { end: false })
  t.match(received.toString(), /^HTTP\/1\.1 408 /)
  await nvr.close()

  // Refused before routing, 431, 400 (not HTTP, malformed URL) leave no request line; the eleven other kinds and the page's load do.
  t.equal(logs.records.filter(record => record.msg === 'request completed').length, 11 * TARGETS.length + 1, 'the requests were logged')
  const everything = JSON.stringify(logs.records)
  for (const secret of SECRETS) t.notOk(everything.includes(secret), 'no token in the log')
})

t.test('the CLI logs no token either, at its most verbose', async t => {
  const run = runCli(['--port', '0', '--token', ACCEPTED_TOKEN, '--admin-token', ADMIN_TOKEN, '--log-level', 'trace', '--max-header-size', '8192'])
  const port = Number(new URL(await run.ready).port)
  for (const request of Object.values(REQUEST_KINDS)) await exchange(port, request(TARGETS[0] as string))
  run.child.kill('SIGTERM')
  t.equal(await run.exit, 0)
  t.match(run.stdout(), /"msg":"request completed"/)
  for (const secret of SECRETS) t.notOk(`${run.stdout()}${run.stderr()}`.includes(secret), 'no token in stdout or stderr')
})

t.test('tokens of any length are accepted exactly, each compared in constant time', async t => {
  const comparisons = spyOnBuiltin(t, crypto, 'timingSafeEqual')
  const long = 'x'.repeat(4096)
  const policy = new TokenPolicy(['a', long, 'ü-tøken'])
  t.equal(policy.judge('Bearer a'), 'accepted')
  t.equal(policy.judge(`Bearer ${long}`), 'accepted')
  t.equal(policy.judge('Bearer ü-tøken'), 'accepted')
  for (const refused of ['b', 'aa', long.slice(1), `${long}x`, 'ü-tøke']) t.equal(policy.judge(`Bearer ${refused}`), 'invalid_token', refused.slice(0, 10))
  // Every judged token is compared with every configured one, at the same length (digests), whether it matches or not.
  t.equal(comparisons.length, 8 * 3)
  t.ok(comparisons.every(([a, b]) => (a as Buffer).length === 32 && (b as Buffer).length === 32))
})

t.test('scoped tokens show in no answer and no log line: served, refused, limited, or set at run time', async t => {
  const scoped = 'scoped-secret-91b2c4'
  const replacement = 'scoped-secret-replaced-0e7d'
  const logs = captureLogs('trace')
  const nvr = await startMockNvr({ data: SAMPLE_DATA, tokens: [ACCEPTED_TOKEN], scopedTokens: [{ token: scoped, cameras: ['cam-1'] }], adminToken: ADMIN_TOKEN, rateLimit: 3, clock: 'manual', logger: logs.logger })
  const answers: string[] = []
  for (const target of [...TARGETS, '/nvr/v1/cameras/cam-2/counting_lines']) {
    for (const request of [get(target, auth(`Bearer ${scoped}`)), get(target, auth(`Bearer ${scoped}x`))]) {
      answers.push((await exchange(nvr.port, request)).received.toString('latin1'))
    }
  }
  t.ok(answers.some(answer => answer.startsWith('HTTP/1.1 403 ')), 'an outside camera was refused')
  t.ok(answers.some(answer => answer.startsWith('HTTP/1.1 429 ')), 'the limit was reached')
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }
  const put = (body: unknown) => fetch(`${nvr.url}/__admin/scoped-tokens`, { method: 'PUT', headers: admin, body: JSON.stringify(body) }).then(async answer => answers.push(await answer.text()))
  await put([{ token: replacement, cameras: ['cam-2'] }])
  await put([{ token: ADMIN_TOKEN, cameras: ['cam-2'] }])
  await put([{ token: ACCEPTED_TOKEN, cameras: ['cam-2'] }])
  await put([{ token: `${scoped} x`, cameras: ['cam-2'] }])
  await nvr.close()
  const everything = `${answers.join('\n')}${JSON.stringify(logs.records)}`
  for (const secret of [scoped, replacement, ...SECRETS]) t.notOk(everything.includes(secret), 'no token in the answers or the log')
  t.ok(logs.records.some(record => record.msg === 'admin: scoped tokens replaced'), 'the change was logged, by count')
})

t.test('the CLI logs no scoped token, at its most verbose', async t => {
  const scoped = 'scoped-secret-cli-4f11'
  const run = runCli(['--port', '0', '--scoped-token', `${scoped}:cam-1`, '--log-level', 'trace', '--rate-limit', '2'])
  const port = Number(new URL(await run.ready).port)
  for (const target of ['/nvr/v1/cameras/cam-1/counting_lines', '/nvr/v1/cameras/other/counting_lines', '/nvr/v1/cameras/other/counting_lines']) {
    await exchange(port, get(target, auth(`Bearer ${scoped}`)))
  }
  run.child.kill('SIGTERM')
  t.equal(await run.exit, 0)
  t.match(run.stdout(), /scoped tokens see only their cameras/)
  t.notOk(`${run.stdout()}${run.stderr()}`.includes(scoped), 'no scoped token in stdout or stderr')
})

t.test('scoped tokens are compared in constant time too, with every token, whatever the outcome', async t => {
  const comparisons = spyOnBuiltin(t, crypto, 'timingSafeEqual')
  const policy = new TokenPolicy(['a', 'b'], ['admin'], [{ token: 's', cameras: ['cam-1'] }, { token: 's', cameras: ['cam-2'] }, { token: 't', cameras: [] }])
  comparisons.length = 0
  t.match(policy.admit('Bearer s'), { token: 's', cameras: new Set(['cam-1', 'cam-2']) })
  t.match(policy.admit('Bearer a'), { token: 'a', cameras: undefined })
  t.equal(policy.admit('Bearer u'), 'invalid_token')
  // Each judged token meets the two scoped tokens and the two all-camera ones, matched or not.
  t.equal(comparisons.length, 3 * 4)
  t.ok(comparisons.every(([a, b]) => (a as Buffer).length === 32 && (b as Buffer).length === 32))
})
