import t from 'tap'
import { parsePreferences } from '../../src/control/prefer.js'
import { startMockNvr } from '../../src/index.js'
import { AUTH, SAMPLE_DATA } from '../helpers/app.js'
import { buildControlled, manualClock } from '../helpers/control.js'

const LIST = '/nvr/v1/cameras/cam-1/counting_lines'

t.test('Prefer headers change nothing unless allowPrefer is on', async t => {
  const { app, control } = await buildControlled(t)
  const response = await app.inject({ url: LIST, headers: { ...AUTH, prefer: 'code=503, delay=800' } })
  t.equal(response.statusCode, 200)
  t.equal(response.headers['preference-applied'], undefined)
  t.match(control.requests(), [{ fault: null }])
})

t.test('with allowPrefer, code=… answers that status, and Preference-Applied says so', async t => {
  const { app, control } = await buildControlled(t, { allowPrefer: true })
  const response = await app.inject({ url: LIST, headers: { ...AUTH, prefer: 'code=503' } })
  t.equal(response.statusCode, 503)
  t.equal(response.headers['retry-after'], '1')
  t.equal(response.headers['preference-applied'], 'code=503')
  t.equal(response.headers['access-control-allow-origin'], '*')
  t.strictSame(response.json(), { result: { success: false, httpCode: 503, errorCode: 'INJECTED_FAULT', errorMessage: 'Injected fault: 503 Service Unavailable.' }, content: null })
  t.match(control.requests(), [{ status: 503, fault: 'prefer', authenticated: true }])
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 200, 'only that request')
})

t.test('with allowPrefer, delay=… waits that long, fixed or within a range, before the answer', async t => {
  const clock = manualClock()
  const { app } = await buildControlled(t, { allowPrefer: true, clock, latency: { min: 5, max: 5 } })
  const slow = app.inject({ url: LIST, headers: { ...AUTH, prefer: 'delay=800' } })
  const wait = await clock.next()
  t.equal(wait.ms, 800, 'the Prefer delay replaces the latency')
  wait.resume()
  const response = await slow
  t.equal(response.statusCode, 200)
  t.equal(response.headers['preference-applied'], 'delay=800')

  const both = app.inject({ url: LIST, headers: { ...AUTH, prefer: 'code=500, delay=100-200' } })
  const ranged = await clock.next()
  t.ok(ranged.ms >= 100 && ranged.ms <= 200)
  ranged.resume()
  t.equal((await both).statusCode, 500)

  const codeOnly = app.inject({ url: LIST, headers: { ...AUTH, prefer: 'code=404' } })
  const latency = await clock.next()
  t.equal(latency.ms, 5, 'a Prefer code alone keeps the latency')
  latency.resume()
  t.equal((await codeOnly).statusCode, 404)
})

t.test('code=200 answers as usual, unknown preferences are ignored, quotes and parameters are read', async t => {
  const { app } = await buildControlled(t, { allowPrefer: true })
  const answer = (prefer: string) => app.inject({ url: LIST, headers: { ...AUTH, prefer } })
  const normal = await answer('code=200')
  t.equal(normal.statusCode, 200)
  t.equal(normal.headers['preference-applied'], 'code=200')
  const ignored = await answer('return=minimal, respond-async')
  t.equal(ignored.statusCode, 200)
  t.equal(ignored.headers['preference-applied'], undefined)
  const quoted = await answer('return=minimal, CODE="429"; reason=test')
  t.equal(quoted.statusCode, 429)
  t.equal(quoted.headers['preference-applied'], 'code=429')
})

t.test('a bad code or delay in Prefer is a 400 saying what is wrong', async t => {
  const { app } = await buildControlled(t, { allowPrefer: true })
  const cases: Array<[string, string]> = [
    ['code=abc', "the Prefer header's code must be 200 or a status from 400 to 599, not 'abc'"],
    ['code=302', "the Prefer header's code must be 200 or a status from 400 to 599, not '302'"],
    ['code=6000', "the Prefer header's code must be 200 or a status from 400 to 599, not '6000'"],
    ['delay=soon', "the Prefer header's delay must be milliseconds like 200, or a range like 100-800, not 'soon'"],
    ['delay=900-100', "the Prefer header's delay must go from low to high, not from 900 to 100"],
    ['code=503, delay=999999', "the Prefer header's delay must be at most 300000 milliseconds, not '999999'"]
  ]
  for (const [prefer, problem] of cases) {
    const response = await app.inject({ url: LIST, headers: { ...AUTH, prefer } })
    t.equal(response.statusCode, 400, prefer)
    t.strictSame(response.json().result, { success: false, httpCode: 400, errorCode: 'INVALID_PREFER', errorMessage: `The request was refused: ${problem}.` })
  }
})

t.test('a Prefer header beats an injected fault and does not use it up', async t => {
  const { app, control } = await buildControlled(t, { allowPrefer: true })
  control.injectFault({ status: 500, times: 1 })
  t.equal((await app.inject({ url: LIST, headers: { ...AUTH, prefer: 'code=503' } })).statusCode, 503)
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 500)
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 200)
})

t.test('Prefer applies only once the bearer token is accepted', async t => {
  const { app } = await buildControlled(t, { allowPrefer: true })
  const response = await app.inject({ url: LIST, headers: { prefer: 'code=503' } })
  t.equal(response.statusCode, 401)
  t.equal(response.headers['preference-applied'], undefined)
})

t.test('startMockNvr takes allowPrefer, and a repeated Prefer header is read as one list', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA, allowPrefer: true })
  t.teardown(() => nvr.close())
  const response = await fetch(`${nvr.url}${LIST}`, { headers: [['authorization', 'Bearer x'], ['prefer', 'return=minimal'], ['prefer', 'code=418']] })
  t.equal(response.status, 418)
  t.strictSame(parsePreferences('wait=10'), undefined)
  t.strictSame(parsePreferences('delay=5, code=404'), { code: 404, delay: { min: 5, max: 5 }, applied: 'delay=5, code=404' })
})
