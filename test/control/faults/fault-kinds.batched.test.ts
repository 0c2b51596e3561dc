import t from 'tap'
import { AUTH } from '../../helpers/app.js'
import { buildControlled, manualClock } from '../../helpers/control.js'
import { exchange, parseAnswers } from '../../helpers/raw-http.js'

const LIST = '/nvr/v1/cameras/cam-1/counting_lines'

t.test('a malformed body keeps the status and headers but stops halfway through the JSON', async t => {
  const { app, control } = await buildControlled(t)
  const whole = (await app.inject({ url: LIST, headers: AUTH })).body
  control.injectFault({ malformed: true, times: 2 })
  const response = await app.inject({ url: LIST, headers: AUTH })
  t.equal(response.statusCode, 200)
  t.equal(response.headers['content-type'], 'application/json; charset=utf-8')
  t.equal(response.body, whole.slice(0, Math.floor(whole.length / 2)))
  t.equal(response.headers['content-length'], String(response.body.length))
  t.throws(() => JSON.parse(response.body), SyntaxError)
  const notFound = await app.inject({ url: '/nvr/v1/cameras/cam-9/counting_lines', headers: AUTH })
  t.equal(notFound.statusCode, 404, 'an error answer is cut off too, keeping its status')
  t.throws(() => JSON.parse(notFound.body), SyntaxError)
  t.equal((await app.inject({ url: LIST, headers: AUTH })).body, whole)
})

t.test('a dropped connection never answers: inject() rejects as if the connection was reset', async t => {
  const { app, control } = await buildControlled(t)
  control.injectFault({ drop: true, times: 1 })
  await t.rejects(app.inject({ url: LIST, headers: AUTH }), { code: 'LIGHT_ECONNRESET' })
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 200)
  t.match(control.requests(), [{ status: null, fault: 'fault-1', authenticated: true }, { status: 200, fault: null }])
})

t.test('a delay holds the answer until it has passed; with a status, the status comes after it', async t => {
  const clock = manualClock()
  const { app, control } = await buildControlled(t, { clock })
  control.injectFault({ delay: 800, times: 1 })
  let answered = false
  const pending = app.inject({ url: LIST, headers: AUTH }).then(response => { answered = true; return response })
  const wait = await clock.next()
  t.equal(wait.ms, 800)
  t.equal(answered, false, 'nothing is answered before the delay has passed')
  wait.resume()
  t.equal((await pending).statusCode, 200)

  control.injectFault({ delay: { min: 100, max: 200 }, status: 504, times: 1 })
  const slowFailure = app.inject({ url: LIST, headers: AUTH })
  const ranged = await clock.next()
  t.ok(ranged.ms >= 100 && ranged.ms <= 200, `${ranged.ms} ms is in the range`)
  ranged.resume()
  t.equal((await slowFailure).statusCode, 504)
})

t.test('latency delays every authenticated API request; a fault\'s delay replaces it', async t => {
  const clock = manualClock()
  const { app, control } = await buildControlled(t, { clock, latency: { min: 250, max: 250 } })
  const delayed = app.inject({ url: LIST, headers: AUTH })
  const wait = await clock.next()
  t.equal(wait.ms, 250)
  wait.resume()
  t.equal((await delayed).statusCode, 200)

  t.equal((await app.inject({ url: '/healthz' })).statusCode, 200, 'health is never delayed')
  const refused = app.inject({ url: LIST })
  const refusalWait = await clock.next()
  t.equal(refusalWait.ms, 250, 'a refused token waits too')
  refusalWait.resume()
  t.equal((await refused).statusCode, 401)

  control.injectFault({ delay: 40, times: 1 })
  const faulted = app.inject({ url: LIST, headers: AUTH })
  const replaced = await clock.next()
  t.equal(replaced.ms, 40)
  replaced.resume()
  await faulted
  control.injectFault({ status: 500, times: 1 })
  const failing = app.inject({ url: LIST, headers: AUTH })
  const latency = await clock.next()
  t.equal(latency.ms, 250, 'a fault without its own delay keeps the latency')
  latency.resume()
  t.equal((await failing).statusCode, 500)
})

t.test('latency delays the 401 and the 404 a frontend meets, takes no fault away, and leaves preflights alone', async t => {
  const clock = manualClock()
  const { app, control } = await buildControlled(t, { clock, latency: { min: 70, max: 70 } })
  const fault = control.injectFault({ status: 503, times: 1 })
  for (const [url, headers, status] of [[LIST, {}, 401], [LIST, { authorization: 'Bearer wrong' }, 401], ['/nvr/v1/unknown', {}, 401]] as const) {
    const answer = app.inject({ url, headers })
    const wait = await clock.next()
    t.equal(wait.ms, 70, `${url} ${JSON.stringify(headers)} waits`)
    wait.resume()
    t.equal((await answer).statusCode, status)
  }
  t.strictSame(control.faults().map(({ id }) => id), [fault.id], 'no refused request used the fault up')
  control.clearFaults()
  for (const url of ['/nvr/v1/unknown', '/nvr/v1/cameras/nope/counting_lines', '/nvr/v1']) {
    const answer = app.inject({ url, headers: AUTH })
    const wait = await clock.next()
    t.equal(wait.ms, 70, `${url} waits`)
    wait.resume()
    t.equal((await answer).statusCode, 404)
  }
  const preflight = await app.inject({ method: 'OPTIONS', url: LIST, headers: { origin: 'http://app.example', 'access-control-request-method': 'GET' } })
  t.equal(preflight.statusCode, 204, 'a preflight is answered at once, the clock untouched')
  t.match(control.requests().slice(0, 3), [{ status: 401, authenticated: false }, { status: 401 }, { status: 401 }])
})

t.test('latency delays the refusals at the edge of HTTP under /nvr/v1 too, and only there', async t => {
  const clock = manualClock()
  const { app, control } = await buildControlled(t, { clock, latency: { min: 90, max: 90 } })
  for (const [headers, status] of [[AUTH, 400], [{}, 401]] as const) {
    const answer = app.inject({ url: '/nvr/v1/cameras/%zz/counting_lines', headers })
    const wait = await clock.next()
    t.equal(wait.ms, 90, `a malformed URL answered ${status} waits`)
    wait.resume()
    t.equal((await answer).statusCode, status)
  }
  t.match(control.requests(), [{ status: 400, durationMs: 90 }, { status: 401, durationMs: 90 }])
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = (app.server.address() as { port: number }).port
  const withoutHost = exchange(port, `GET ${LIST} HTTP/1.1\r\nAuthorization: ${AUTH.authorization}\r\nConnection: close\r\n\r\n`)
  const wait = await clock.next()
  t.equal(wait.ms, 90, 'a missing Host waits')
  wait.resume()
  t.match(parseAnswers((await withoutHost).received)[0], { status: 400 })
  const elsewhere = await exchange(port, 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n')
  t.match(parseAnswers(elsewhere.received)[0], { status: 400 }, 'outside /nvr/v1 at once, the clock untouched')
  t.equal((await app.inject({ url: '/docs/%zz' })).statusCode, 400)
})

t.test('without latency a refusal is answered at once', async t => {
  const asked: number[] = []
  const { app } = await buildControlled(t, { clock: { ...manualClock(), setTimer: (resume: () => void, ms: number) => { asked.push(ms); resume(); return { due: ms } } } })
  t.equal((await app.inject({ url: LIST })).statusCode, 401)
  t.equal((await app.inject({ url: '/nvr/v1/unknown', headers: AUTH })).statusCode, 404)
  t.equal((await app.inject({ url: '/nvr/v1/cameras/%zz/counting_lines', headers: AUTH })).statusCode, 400)
  t.strictSame(asked, [])
})

t.test('random delays repeat with the same seed, and reset() starts the sequence again', async t => {
  const delays = async (seed: number, runs: number, reset = false) => {
    const clock = manualClock()
    const { app, control } = await buildControlled(t, { clock, seed, latency: { min: 0, max: 5000 } })
    const picked: number[] = []
    for (let round = 0; round < (reset ? 2 : 1); round++) {
      if (round > 0) control.reset()
      for (let run = 0; run < runs; run++) {
        const pending = app.inject({ url: LIST, headers: AUTH })
        const wait = await clock.next()
        picked.push(wait.ms)
        wait.resume()
        await pending
      }
    }
    return picked
  }
  const first = await delays(7, 4)
  t.strictSame(await delays(7, 4), first)
  t.notSame(await delays(8, 4), first)
  t.strictSame(await delays(7, 4, true), [...first, ...first])
})
