import t from 'tap'
import { RateLimiter } from '../../src/contract/rate-limit.js'
import { OptionsError, SettingError, startMockNvr } from '../../src/index.js'
import { AUTH, SAMPLE_DATA, TOKEN } from '../helpers/app.js'
import { ManualClock } from '../../src/util/clock.js'
import { ADMIN, ADMIN_TOKEN, buildControlled } from '../helpers/control.js'

const LIST = '/nvr/v1/cameras/cam-1/counting_lines'
const OTHER = 'other-token'
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

/** A clock in milliseconds that moves only when the test says so. */
function handClock (start = 1000) {
  let now = start
  return { now: () => now, advance: (ms: number) => { now += ms } }
}

t.test('a bucket of N refills N a second, continuously, and says how long to wait', async t => {
  const clock = handClock()
  const limiter = new RateLimiter({ perSecond: 4, now: clock.now })
  t.equal(limiter.active, true)
  t.equal(limiter.perSecond, 4)
  for (let request = 0; request < 4; request++) t.equal(limiter.take('a'), undefined, 'a burst of 4')
  t.equal(limiter.take('a'), 1, 'the fifth waits: 250 ms, rounded up to 1 s')
  t.equal(limiter.take('a'), 1, 'a refused request takes nothing, and is refused again')
  t.equal(limiter.take('b'), undefined, 'each token has its own bucket')
  clock.advance(249)
  t.equal(limiter.take('a'), 1, 'not yet a whole request back')
  clock.advance(1)
  t.equal(limiter.take('a'), undefined, 'one request back after 250 ms')
  t.equal(limiter.take('a'), 1)
  clock.advance(10_000)
  for (let request = 0; request < 4; request++) t.equal(limiter.take('a'), undefined, 'a long pause refills no more than the burst')
  t.equal(limiter.take('a'), 1)

  limiter.set(1)
  t.equal(limiter.take('a'), undefined, 'a new limit starts every bucket full')
  t.equal(limiter.take('a'), 1)
  clock.advance(500)
  t.equal(limiter.take('a'), 1, 'half a request is not one')
  limiter.set(undefined)
  t.equal(limiter.active, false)
  t.equal(limiter.take('a'), undefined, 'off, everything passes')
  t.equal(new RateLimiter().active, false, 'off by default')
})

t.test('a bucket is kept for the last 10,000 tokens, as the contract page says, the oldest forgotten first', async t => {
  const limiter = new RateLimiter({ perSecond: 1, now: () => 0 })
  t.equal(limiter.take('first'), undefined)
  t.equal(limiter.take('first'), 1)
  // The numbers written out, not read from the code: a change of the bound fails here.
  for (let token = 1; token <= 9_999; token++) limiter.take(`token-${token}`)
  t.equal(limiter.take('first'), 1, 'with 9,999 others, 10,000 in all: still remembered, still empty')
  limiter.take('token-10000')
  t.equal(limiter.take('first'), undefined, 'the 10,001st token forgot the oldest, so it is full again')
  t.equal(limiter.take('token-10000'), 1, 'the newest are remembered')
})

t.test('past the limit a token gets 429 in the envelope with Retry-After; another token does not', async t => {
  const clock = new ManualClock(1000)
  const { app, control } = await buildControlled(t, { rateLimit: 2, clock, tokens: [TOKEN, OTHER] })
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 200)
  t.equal((await app.inject({ method: 'HEAD', url: LIST, headers: AUTH })).statusCode, 200, 'HEAD counts too')
  const limited = await app.inject({ url: LIST, headers: AUTH })
  t.equal(limited.statusCode, 429)
  t.equal(limited.headers['retry-after'], '1')
  t.equal(limited.headers['content-type'], 'application/json; charset=utf-8')
  t.strictSame(limited.json(), {
    result: { success: false, httpCode: 429, errorCode: 'RATE_LIMITED', errorMessage: 'Too many requests for this token; retry after 1 s, and back off exponentially.' },
    content: null
  })
  t.equal((await app.inject({ url: '/nvr/v1/cameras/nope/counting_lines', headers: AUTH })).statusCode, 429, 'whatever the path')
  t.equal((await app.inject({ url: LIST, headers: bearer(OTHER) })).statusCode, 200, 'another token has its own bucket')
  t.equal((await app.inject({ url: LIST, headers: { authorization: `bearer  ${TOKEN}` } })).statusCode, 429, 'the same token however the header is written')
  clock.advance(500)
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 200, 'one request back after 1/2 s')
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 429)
  t.match(control.requests().at(-1), { status: 429, authenticated: true })
})

t.test('auth comes first: a request no token opens is a 401 and counts against no one', async t => {
  const { app } = await buildControlled(t, { rateLimit: 1, clock: new ManualClock(0) })
  for (let request = 0; request < 3; request++) {
    t.equal((await app.inject({ url: LIST, headers: bearer('wrong') })).statusCode, 401)
    t.equal((await app.inject({ url: LIST })).statusCode, 401)
  }
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 200)
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 429)
})

t.test('off by default; /healthz, the admin API and CORS preflights are never limited', async t => {
  const free = await buildControlled(t, { clock: new ManualClock(0) })
  for (let request = 0; request < 50; request++) {
    const answer = await free.app.inject({ url: LIST, headers: AUTH })
    if (answer.statusCode !== 200) t.fail(`request ${request} got ${answer.statusCode}`)
  }
  t.pass('50 requests in the same millisecond, none limited')

  const { app } = await buildControlled(t, { rateLimit: 1, clock: new ManualClock(0), adminToken: ADMIN_TOKEN })
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 200)
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 429)
  for (let request = 0; request < 5; request++) {
    t.equal((await app.inject({ url: '/healthz', headers: AUTH })).statusCode, 200, '/healthz')
    t.equal((await app.inject({ url: '/__admin/requests', headers: ADMIN })).statusCode, 200, 'admin')
    const preflight = await app.inject({ method: 'OPTIONS', url: LIST, headers: { origin: 'http://app.test', 'access-control-request-method': 'GET' } })
    t.equal(preflight.statusCode, 204, 'preflight')
  }
})

t.test('the limit changes at run time through the handle and the admin API, and reset restores it', async t => {
  const { app, control } = await buildControlled(t, { rateLimit: 1, clock: new ManualClock(0), adminToken: ADMIN_TOKEN })
  const status = async () => (await app.inject({ url: LIST, headers: AUTH })).statusCode
  t.strictSame(control.rateLimit(), { rateLimit: 1 })
  t.equal(await status(), 200)
  t.equal(await status(), 429)

  t.strictSame(control.setRateLimit(3), { rateLimit: 3 })
  t.strictSame([await status(), await status(), await status(), await status()], [200, 200, 200, 429], 'a new limit starts with a full bucket')

  const off = await app.inject({ method: 'PUT', url: '/__admin/rate-limit', headers: ADMIN, payload: { rateLimit: null } })
  t.strictSame(off.json(), { result: { success: true, httpCode: 200 }, content: { rateLimit: null } })
  t.strictSame([await status(), await status(), await status(), await status()], [200, 200, 200, 200], 'off')
  const on = await app.inject({ method: 'PUT', url: '/__admin/rate-limit', headers: ADMIN, payload: { rateLimit: 2 } })
  t.strictSame(on.json().content, { rateLimit: 2 })
  t.strictSame((await app.inject({ url: '/__admin/rate-limit', headers: ADMIN })).json().content, { rateLimit: 2 })
  t.strictSame([await status(), await status(), await status()], [200, 200, 429])

  for (const [payload, problem] of [
    [{ rateLimit: 0 }, '/rateLimit: must be a whole number from 1 to 1000000, or null to turn the limit off, not 0'],
    [{ rateLimit: 1.5 }, '/rateLimit: must be a whole number from 1 to 1000000, or null to turn the limit off, not 1.5'],
    [{}, '/rateLimit: is missing'],
    [{ rateLimit: 1, burst: 3 }, '/burst: is not a known field']
  ] as const) {
    const refused = await app.inject({ method: 'PUT', url: '/__admin/rate-limit', headers: ADMIN, payload })
    t.equal(refused.statusCode, 400)
    t.strictSame(refused.json().result, { success: false, httpCode: 400, errorCode: 'INVALID_BODY', errorMessage: `The request body is invalid: ${problem}.`, problems: [problemOf(problem)] })
  }
  t.throws(() => control.setRateLimit(0), new SettingError('rateLimit', 'rateLimit must be a whole number from 1 to 1000000, or null to turn it off, not 0'))
  t.throws(() => control.setRateLimit(0), { setting: 'rateLimit', code: 'NVR_ERR_SETTING' }, 'the error names the setting')
  t.strictSame(control.rateLimit(), { rateLimit: 2 }, 'nothing changed')

  control.reset()
  t.strictSame(control.rateLimit(), { rateLimit: 1 }, 'reset gives the start-up limit back')
  t.equal(await status(), 200)
  t.equal(await status(), 429)
})

t.test('over a socket the fast path steps aside while a limit is on, so every request is counted once', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA, tokens: [TOKEN], rateLimit: 2, clock: 'manual' })
  t.teardown(() => nvr.close())
  const status = async () => {
    const answer = await fetch(`${nvr.url}${LIST}`, { headers: AUTH })
    await answer.arrayBuffer()
    return answer.status
  }
  t.strictSame([await status(), await status(), await status()], [200, 200, 429])
  await nvr.clock.advance(500)
  t.strictSame([await status(), await status()], [200, 429])
  nvr.setRateLimit(null)
  t.strictSame([await status(), await status(), await status()], [200, 200, 200], 'off, the fast path answers again')
  t.equal(nvr.requests().length, 8)
  await t.rejects(startMockNvr({ rateLimit: 0 }), new OptionsError('option rateLimit must be a whole number from 1 to 1000000, not 0'))
  await t.rejects(startMockNvr({ proxy: { target: 'http://127.0.0.1:9' }, rateLimit: 5 }), /option rateLimit does not apply to a proxy/)
})

// '/0/token: must not be empty' as the answer's problems list it; a problem of the whole body has the path ''.
function problemOf (sentence: string) {
  const [, path = '', message = sentence] = /^(\/\S*): (.*)$/.exec(sentence) ?? []
  return { path, message }
}

t.test('the rate limit comes before faults: a request answered 429 uses up none of a fault\'s times', async t => {
  const { app, control } = await buildControlled(t, { rateLimit: 1, clock: new ManualClock(0) })
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 200, 'the bucket\'s one request')
  control.injectFault({ status: 503, times: 1 })
  const limited = await app.inject({ url: LIST, headers: AUTH })
  t.equal(limited.statusCode, 429, 'refused by the limit, not by the fault')
  t.equal(limited.json().result.errorCode, 'RATE_LIMITED')
  t.match(control.faults(), [{ status: 503, times: 1, remaining: 1 }], 'the fault still has its one request')
  t.match(control.requests().at(-1), { status: 429, fault: null })
})
