import t, { type Test } from 'tap'
import { startMockNvr, type MockNvr } from '../../src/start/start-mock-nvr.js'
import { parseEvents, readUntil } from '../helpers/event-stream.js'
import { line } from '../helpers/app.js'
import { ADMIN as ADMIN_HEADERS, ADMIN_TOKEN, buildControlled } from '../helpers/control.js'

const ADMIN = { authorization: 'Bearer admin-secret' }
const DATA = { cameras: [{ id: 'cam-1' }], counting_lines: [line()] }

async function start (t: Test, clock: 'manual' | 'real' = 'manual'): Promise<MockNvr> {
  const nvr = await startMockNvr({ data: DATA, clock, adminToken: 'admin-secret', health: { pattern: 'flapping', up: 10_000, down: 5000 } })
  t.teardown(nvr.close)
  return nvr
}

function call (nvr: MockNvr, method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) {
  return nvr.app.inject({ method, url, headers: ADMIN, ...(payload === undefined ? {} : { payload: payload as object }) })
}

t.test('GET /__admin/health gives the state now and what comes next', async t => {
  const nvr = await start(t)
  const response = await call(nvr, 'GET', '/__admin/health')
  t.equal(response.statusCode, 200)
  const { content } = response.json()
  t.match(content, { state: 'online', listening: true, next: [{ state: 'offline' }, { state: 'online' }] })
  t.equal(content.next.length, 10)
})

t.test('PUT /__admin/health sets any state with its parameters', async t => {
  const real = await start(t, 'real')
  const response = await call(real, 'PUT', '/__admin/health', { state: 'rebooting', down: 2000, starting: 3000 })
  t.equal(response.statusCode, 200)
  t.match(response.json().content, { state: 'rebooting', phase: 'down', down: 2000, starting: 3000, listening: false })
  const nvr = await start(t)
  const slow = await call(nvr, 'PUT', '/__admin/health', { state: 'slow', latency: 300 })
  t.match(slow.json().content, { state: 'slow', latency: 300 })
  const unreachable = await call(nvr, 'PUT', '/__admin/health', { state: 'unreachable' })
  t.equal(unreachable.statusCode, 200, 'unreachable needs no `for`: the admin API is never held')
  t.match(unreachable.json().content, { state: 'unreachable', listening: true })
})

t.test('on the real clock, offline needs a `for` here: the admin API shares the port that goes away', async t => {
  const nvr = await start(t, 'real')
  const refused = await call(nvr, 'PUT', '/__admin/health', { state: 'offline' })
  t.equal(refused.statusCode, 400)
  t.match(refused.json().result, { errorCode: 'INVALID_BODY', errorMessage: 'The request body is invalid: /for: is needed for offline here: the admin API shares the port that goes away, so give the milliseconds after which it comes back.' })
  t.match(refused.json().result.problems, [{ path: '/for', message: /^is needed for offline here/ }])
  const taken = await call(nvr, 'PUT', '/__admin/health', { state: 'offline', for: 1000 })
  t.equal(taken.statusCode, 200)
  t.match(taken.json().content, { state: 'offline', listening: false })
  t.match(nvr.health(), { state: 'offline' })
})

t.test('on the manual clock, a state that closes the shared port is refused: nothing could move the clock while it is closed', async t => {
  const nvr = await start(t)
  for (const body of [{ state: 'offline', for: 1000 }, { state: 'rebooting', down: 1000, starting: 1000 }]) {
    const refused = await call(nvr, 'PUT', '/__admin/health', body)
    t.equal(refused.statusCode, 409)
    t.match(refused.json().result, { errorCode: 'HEALTH_LOCKS_OUT', errorMessage: `The device cannot go ${body.state} here: the clock is manual and this admin API shares the device's port, so nothing could move the clock while the port is closed. Run a fleet of one (--devices 1), whose control address stays up, or use the library's clock.advance.` })
  }
  t.match(nvr.health(), { state: 'online', listening: true })
})

t.test('an invalid state is a 400 naming the field, in the sentence and as problems', async t => {
  const nvr = await start(t)
  const response = await call(nvr, 'PUT', '/__admin/health', { state: 'slow', latency: -1 })
  t.equal(response.statusCode, 400)
  t.equal(response.json().result.errorMessage, 'The request body is invalid: /latency: must be a whole number from 0 to 300000, not -1.')
  t.strictSame(response.json().result.problems, [{ path: '/latency', message: 'must be a whole number from 0 to 300000, not -1' }])
  const asleep = (await call(nvr, 'PUT', '/__admin/health', { state: 'asleep' })).json().result
  t.equal(asleep.errorMessage, 'The request body is invalid: /state: must be one of "online", "offline", "unreachable", "rebooting", "slow", not "asleep".')
  t.strictSame(asleep.problems, [{ path: '/state', message: 'must be one of "online", "offline", "unreachable", "rebooting", "slow", not "asleep"' }])
})

t.test('POST /__admin/clock advances a manual clock; GET reads it', async t => {
  const nvr = await start(t)
  const before = (await call(nvr, 'GET', '/__admin/clock')).json().content.now
  t.equal(before, new Date(nvr.clock.now()).toISOString())
  const response = await call(nvr, 'POST', '/__admin/clock', { advance: 10_000 })
  t.equal(response.statusCode, 200)
  t.equal(response.json().content.now, new Date(Date.parse(before) + 10_000).toISOString())
  t.match(nvr.health(), { state: 'offline', listening: false })
  const bad = await call(nvr, 'POST', '/__admin/clock', { advance: -5 })
  t.equal(bad.statusCode, 400)
  t.equal(bad.json().result.errorMessage, 'The request body is invalid: /advance: must be a whole number from 0 to 2147483647, not -5.')
  t.strictSame(bad.json().result.problems, [{ path: '/advance', message: 'must be a whole number from 0 to 2147483647, not -5' }])
})

t.test('on the real clock, GET /__admin/clock reads it and POST is a 409 saying how to move it by hand', async t => {
  const nvr = await start(t, 'real')
  const before = Date.now()
  const read = await call(nvr, 'GET', '/__admin/clock')
  t.equal(read.statusCode, 200)
  const now = Date.parse(read.json().content.now)
  t.ok(now >= before && now <= Date.now(), 'the machine\'s time')
  for (const body of [{ advance: 10 }, { advance: -5 }, undefined]) {
    const refused = await call(nvr, 'POST', '/__admin/clock', body)
    t.equal(refused.statusCode, 409)
    t.strictSame(refused.json().result, {
      success: false,
      httpCode: 409,
      errorCode: 'CLOCK_NOT_MANUAL',
      errorMessage: 'The device\'s clock is the real one, which moves by itself: start mock-nvr with --clock manual (the option clock: \'manual\') to move it by hand.'
    })
  }
  t.equal((await call(nvr, 'PUT', '/__admin/clock', { advance: 10 })).statusCode, 405)
})

t.test('GET /__admin/events lists the changes of health with their time', async t => {
  const nvr = await start(t)
  await call(nvr, 'POST', '/__admin/clock', { advance: 10_000 })
  const { content } = (await call(nvr, 'GET', '/__admin/events')).json()
  t.match(content, [{ kind: 'health', state: 'offline', cause: 'schedule', time: new Date(nvr.clock.now()).toISOString() }])
})

t.test('the journal stream carries the changes of health beside the requests', async t => {
  const nvr = await start(t)
  const controller = new AbortController()
  t.teardown(() => controller.abort())
  const response = await fetch(`${nvr.url}/__admin/requests/stream`, { headers: ADMIN, signal: controller.signal })
  const events = parseEvents(response.body as ReadableStream<Uint8Array>)[Symbol.asyncIterator]()
  await readUntil(events, event => event.event === 'ready')
  await call(nvr, 'PUT', '/__admin/health', { state: 'slow', latency: 10, for: 1000 })
  const [change] = (await readUntil(events, event => event.event === 'health')).slice(-1)
  t.match(JSON.parse(change?.data as string), { kind: 'health', state: 'slow', cause: 'command' })
})

t.test('an app built without a health has no /__admin/health', async t => {
  const { app } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  const response = await app.inject({ url: '/__admin/health', headers: ADMIN_HEADERS })
  t.equal(response.statusCode, 404)
  t.equal(response.json().result.errorCode, 'PATH_NOT_FOUND')
})
