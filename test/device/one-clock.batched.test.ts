import t, { type Test } from 'tap'
import { startMockFleet, startMockNvr, type MockNvr } from '../../src/index.js'
import { SAMPLE_DATA, TOKEN, AUTH } from '../helpers/app.js'
import { captureLogs } from '../helpers/log-capture.js'

const LIST = '/nvr/v1/cameras/cam-1/counting_lines'

interface Held {
  status: () => number | undefined
  answer: Promise<Response>
}

/** Sends a request and notes when it is answered, without waiting for it. */
function send (url: string, headers: Record<string, string> = AUTH): Held {
  let status: number | undefined
  const answer = fetch(url, { headers }).then(async answered => {
    await answered.arrayBuffer()
    status = answered.status
    return answered
  })
  return { status: () => status, answer }
}

/** Resolves once the clock holds `count` waits; fails naming what it waited for after 200 turns of 10 ms. */
async function untilPending (clock: { readonly pending: number }, count: number, what: string): Promise<void> {
  for (let turn = 0; turn < 200; turn++) {
    if (clock.pending >= count) return
    await new Promise(resolve => setTimeout(resolve, 10))
  }
  throw new Error(`the manual clock never held ${what}: ${clock.pending} pending of ${count}`)
}

async function manual (t: Test, options: Parameters<typeof startMockNvr>[0]): Promise<MockNvr> {
  const nvr = await startMockNvr({ data: SAMPLE_DATA, tokens: [TOKEN], clock: 'manual', logLevel: 'silent', ...options })
  t.teardown(() => nvr.close())
  return nvr
}

t.test('--latency waits on the manual clock: the answer comes when the clock moves past it', async t => {
  const nvr = await manual(t, { latency: 1500 })
  const held = send(`${nvr.url}${LIST}`)
  await untilPending(nvr.clock, 1, 'the latency of a list')
  await nvr.clock.advance(1499)
  t.equal(held.status(), undefined, 'not answered 1 ms before its wait ends')
  await nvr.clock.advance(1)
  t.equal((await held.answer).status, 200)
  t.equal(nvr.clock.pending, 0, 'no wait left')
})

t.test('a fault\'s delay and Prefer: delay wait on the manual clock', async t => {
  const nvr = await manual(t, { allowPrefer: true })
  nvr.injectFault({ status: 503, delay: 2000, times: 1 })
  const faulted = send(`${nvr.url}${LIST}`)
  await untilPending(nvr.clock, 1, 'the fault\'s delay')
  const preferred = send(`${nvr.url}${LIST}`, { ...AUTH, prefer: 'delay=700' })
  await untilPending(nvr.clock, 2, 'the Prefer delay')
  await nvr.clock.advance(700)
  t.equal((await preferred.answer).status, 200, 'the shorter wait is answered first')
  t.equal(faulted.status(), undefined)
  await nvr.clock.advance(1300)
  t.equal((await faulted.answer).status, 503)
})

t.test('the rate limit refills as the manual clock moves, and Retry-After reads it', async t => {
  const nvr = await manual(t, { rateLimit: 1 })
  t.equal((await send(`${nvr.url}${LIST}`).answer).status, 200)
  const limited = await send(`${nvr.url}${LIST}`).answer
  t.equal(limited.status, 429)
  t.equal(limited.headers.get('retry-after'), '1')
  await nvr.clock.advance(999)
  t.equal((await send(`${nvr.url}${LIST}`).answer).status, 429, 'not refilled 1 ms early')
  await nvr.clock.advance(1)
  t.equal((await send(`${nvr.url}${LIST}`).answer).status, 200, 'refilled by the clock, not by real time')
})

t.test('the journal\'s times are the manual clock\'s', async t => {
  const nvr = await manual(t, {})
  await nvr.clock.advance(3_600_000)
  await send(`${nvr.url}${LIST}`).answer
  const [entry] = nvr.requests()
  // The real clock is an hour behind: within the request's own duration of the manual clock's now is the manual clock's.
  t.ok(Math.abs(Date.parse(entry?.time as string) - nvr.clock.now()) <= (entry?.durationMs ?? 0) + 1, 'the arrival time is the manual clock\'s')
})

t.test('a held request is let go when the mock closes, so close never waits on a clock nobody moves', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA, tokens: [TOKEN], clock: 'manual', logLevel: 'silent', latency: 60_000 })
  const held = send(`${nvr.url}${LIST}`)
  await untilPending(nvr.clock, 1, 'the latency of a list')
  await nvr.close()
  t.equal((await held.answer).status, 200, 'answered at close, as a real clock would have at last')
})

t.test('a fleet\'s devices wait on the fleet\'s manual clock', async t => {
  const fleet = await startMockFleet({ count: 2, port: 0, data: SAMPLE_DATA, tokens: [TOKEN], clock: 'manual', logLevel: 'silent', latency: 500 })
  t.teardown(() => fleet.close())
  const [first, second] = fleet.devices as [MockNvr, MockNvr]
  const one = send(`${first.url}${LIST}`)
  const two = send(`${second.url}${LIST}`)
  await untilPending(fleet.clock, 2, 'both devices\' latency')
  await fleet.clock.advance(500)
  t.strictSame([(await one.answer).status, (await two.answer).status], [200, 200])
})

t.test('over the admin API: a held request is logged by its id, and POST /__admin/clock answers it', async t => {
  const logs = captureLogs()
  const nvr = await startMockNvr({ data: SAMPLE_DATA, tokens: [TOKEN], clock: 'manual', latency: 1500, adminToken: 'admin-secret', logger: logs.logger })
  t.teardown(() => nvr.close())
  const logged = logs.next(record => record.msg.startsWith('answer held by the manual clock'))
  const held = send(`${nvr.url}${LIST}`)
  const line = await logged
  t.match(line, { level: 30, delayMs: 1500, reqId: String, msg: 'answer held by the manual clock until it moves 1500 ms on (POST /__admin/clock)' })
  const moved = await fetch(`${nvr.url}/__admin/clock`, { method: 'POST', headers: { authorization: 'Bearer admin-secret', 'content-type': 'application/json' }, body: '{"advance":1500}' })
  t.equal(moved.status, 200)
  t.equal((await held.answer).status, 200)
  t.notOk(logs.records.some(record => JSON.stringify(record).includes(TOKEN)), 'no token in any line')
})

t.test('a slow device\'s answers wait on the manual clock', async t => {
  const nvr = await manual(t, {})
  await nvr.setHealth({ state: 'slow', latency: 800 })
  const held = send(`${nvr.url}${LIST}`)
  await untilPending(nvr.clock, 1, 'the slow answer')
  await nvr.clock.advance(799)
  t.equal(held.status(), undefined)
  await nvr.clock.advance(1)
  t.equal((await held.answer).status, 200)
})

t.test('a reset on the manual clock lets held requests go, and none of them lands in the journal after it', async t => {
  const nvr = await manual(t, { latency: 100 })
  const held = send(`${nvr.url}${LIST}`)
  await untilPending(nvr.clock, 1, 'the latency of a list')
  await nvr.reset()
  t.equal((await held.answer).status, 200, 'answered at the reset, not after the next move of the clock')
  t.equal(nvr.clock.pending, 0)
  await nvr.clock.advance(100)
  t.strictSame(nvr.requests(), [], 'the journal after the reset holds nothing of before it')
})

t.test('the MSW handlers\' reset on the manual clock lets held requests go, outside the new journal', async t => {
  const { createNvrHandlers } = await import('../../src/msw/index.js')
  const { setupServer } = await import('msw/node')
  const handlers = createNvrHandlers({ baseUrl: 'http://nvr.test', latency: 100, clock: 'manual' })
  const worker = setupServer(...handlers.handlers)
  worker.listen({ onUnhandledRequest: 'error' })
  t.teardown(() => worker.close())
  const held = send('http://nvr.test/nvr/v1/cameras/cam-security-exit/counting_lines')
  await untilPending(handlers.clock, 1, 'the handlers\' latency')
  handlers.reset()
  t.equal((await held.answer).status, 200)
  t.strictSame(handlers.requests(), [])
})
