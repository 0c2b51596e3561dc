import { request as httpRequest } from 'node:http'
import { Agent, request as httpsRequest } from 'node:https'
import { createServer } from 'node:net'
import t, { type Test } from 'tap'
import { startMockNvr, type MockNvr } from '../../src/start/start-mock-nvr.js'
import { ClockError, OptionsError } from '../../src/errors/errors.js'
import { line } from '../helpers/app.js'
import { HealthSpecError } from '../../src/errors/errors.js'

const AUTH = { authorization: 'Bearer any' }
const ADMIN_TOKEN = 'admin-secret'
const DATA = { cameras: [{ id: 'cam-1' }], counting_lines: [line({ counting_line: 'LINESTRING(100 100, 500 100)', anchor: 'POINT(300 150)' })] }

interface Seen {
  status?: number
  headers?: Record<string, string | string[] | undefined>
  body?: string
  /** ECONNREFUSED, ECONNRESET, or 'timeout' when nothing came within the client's time-out. */
  error?: string
}

/** One request on a fresh connection. The time-out only bounds a request meant to hang; it never decides a pass. */
function get (nvr: MockNvr, path: string, { timeoutMs = 5000, headers = AUTH }: { timeoutMs?: number, headers?: Record<string, string> } = {}): Promise<Seen> {
  return new Promise(resolve => {
    const request = httpRequest({ host: '127.0.0.1', port: nvr.port, path, headers, agent: false }, response => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', chunk => { body += chunk })
      response.on('end', () => resolve({ status: response.statusCode as number, headers: response.headers, body }))
    })
    request.setTimeout(timeoutMs, () => {
      resolve({ error: 'timeout' })
      request.destroy()
    })
    request.on('error', error => resolve({ error: (error as NodeJS.ErrnoException).code ?? error.message }))
    request.end()
  })
}

async function start (t: Test, options: Parameters<typeof startMockNvr>[0] = {}): Promise<MockNvr> {
  const nvr = await startMockNvr({ data: DATA, clock: 'manual', adminToken: ADMIN_TOKEN, ...options })
  t.teardown(nvr.close)
  return nvr
}

const LIST = '/nvr/v1/cameras/cam-1/counting_lines'

t.test('offline: connections are refused, then the device is back on the same port', async t => {
  const nvr = await start(t)
  t.equal((await get(nvr, LIST)).status, 200)
  const report = await nvr.setHealth({ state: 'offline', for: 3000 })
  t.match(report, { state: 'offline', listening: false })
  t.equal((await get(nvr, LIST)).error, 'ECONNREFUSED')
  t.equal((await get(nvr, '/healthz')).error, 'ECONNREFUSED', '/healthz goes with the port')
  await nvr.clock.advance(2999)
  t.equal((await get(nvr, LIST)).error, 'ECONNREFUSED')
  await nvr.clock.advance(1)
  const back = await get(nvr, LIST)
  t.equal(back.status, 200)
  t.match(nvr.health(), { state: 'online', listening: true })
  t.match(nvr.events(), [{ kind: 'health', state: 'offline', cause: 'command' }, { kind: 'health', state: 'online', cause: 'schedule' }])
})

t.test('offline lets an answer under way finish, and closes its connection after it', async t => {
  const nvr = await start(t, { health: { state: 'slow', latency: 1000 } })
  const pending = get(nvr, LIST)
  while (nvr.clock.pending < 1) await new Promise(resolve => setImmediate(resolve))
  await nvr.setHealth({ state: 'offline', for: 5000 })
  t.equal((await get(nvr, LIST)).error, 'ECONNREFUSED')
  await nvr.clock.advance(1000)
  const answered = await pending
  t.equal(answered.status, 200)
  t.equal(answered.headers?.connection, 'close')
})

t.test('unreachable: connections are accepted and never answered, then closed when the state ends', async t => {
  const nvr = await start(t)
  await nvr.setHealth({ state: 'unreachable', for: 1000 })
  // The client gives up after 200 ms: what passes is that nothing came, not how long it took.
  const hanging = await get(nvr, LIST, { timeoutMs: 200 })
  t.strictSame(hanging, { error: 'timeout' })
  t.strictSame(await get(nvr, '/healthz', { timeoutMs: 200 }), { error: 'timeout' })
  const { outcome: held } = await heldRequest(nvr)
  await nvr.clock.advance(1000)
  t.equal((await held).error, 'ECONNRESET', 'the held connection is closed when the state ends')
  t.equal((await get(nvr, LIST)).status, 200)
})

t.test('a device closing while unreachable closes the held connections', async t => {
  const nvr = await startMockNvr({ data: DATA, clock: 'manual', health: { state: 'unreachable' } })
  const { outcome: held } = await heldRequest(nvr)
  await nvr.close()
  t.equal((await held).error, 'ECONNRESET')
})

t.test('rebooting: refused, then 503 with Retry-After in the envelope, then online', async t => {
  const nvr = await start(t)
  await nvr.setHealth({ state: 'rebooting', down: 2000, starting: 3000 })
  t.equal((await get(nvr, LIST)).error, 'ECONNREFUSED')
  await nvr.clock.advance(2000)
  const starting = await get(nvr, LIST, { headers: { ...AUTH, origin: 'http://localhost:5173' } })
  t.equal(starting.status, 503)
  t.equal(starting.headers?.['retry-after'], '3')
  t.equal(starting.headers?.['access-control-allow-origin'], '*', 'a browser app can read it')
  t.strictSame(JSON.parse(starting.body as string), {
    result: { success: false, httpCode: 503, errorCode: 'DEVICE_STARTING', errorMessage: 'The device is starting; retry after 3 s.' },
    content: null
  })
  const healthz = await get(nvr, '/healthz')
  t.equal(healthz.status, 503)
  t.match(nvr.health(), { state: 'rebooting', phase: 'starting' })
  const admin = await get(nvr, '/__admin/health', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
  t.equal(admin.status, 200, 'the admin API answers while the device starts')
  await nvr.clock.advance(2500)
  t.equal((await get(nvr, LIST)).headers?.['retry-after'], '1')
  await nvr.clock.advance(500)
  t.equal((await get(nvr, LIST)).status, 200)
  t.equal((await get(nvr, '/healthz')).status, 200)
})

t.test('a HEAD while starting is a 503 without a body', async t => {
  const nvr = await start(t)
  await nvr.setHealth({ state: 'rebooting', down: 0, starting: 1000 })
  const answer = await new Promise<{ status?: number, body: string }>(resolve => {
    const request = httpRequest({ host: '127.0.0.1', port: nvr.port, path: LIST, method: 'HEAD', headers: AUTH, agent: false }, response => {
      let body = ''
      response.on('data', chunk => { body += String(chunk) })
      response.on('end', () => resolve({ status: response.statusCode, body }))
    })
    request.end()
  })
  t.strictSame(answer, { status: 503, body: '' })
  t.match(nvr.requests().at(-1), { method: 'HEAD', status: 503 })
})

t.test('going offline closes an idle keep-alive connection at once; over HTTPS too', async t => {
  const nvr = await start(t, { tlsSelfSigned: true })
  const agent = new Agent({ keepAlive: true, ca: nvr.certificate })
  t.teardown(() => agent.destroy())
  const first = await new Promise<number | undefined>((resolve, reject) => {
    httpsRequest({ host: '127.0.0.1', port: nvr.port, path: '/healthz', agent }, response => {
      response.resume()
      response.on('end', () => resolve(response.statusCode))
    }).on('error', reject).end()
  })
  t.equal(first, 200)
  const socket = Object.values(agent.freeSockets).flat()[0]
  t.ok(socket, 'the connection is kept alive')
  const closed = new Promise(resolve => socket?.once('close', resolve))
  await nvr.setHealth({ state: 'offline', for: 1000 })
  await closed
  await nvr.clock.advance(1000)
  t.match(nvr.health(), { state: 'online', listening: true })
})

t.test('slow: each answer waits the latency on the schedules\' clock', async t => {
  const nvr = await start(t)
  await nvr.setHealth({ state: 'slow', latency: 800 })
  let answered: Seen | undefined
  const pending = get(nvr, LIST).then(seen => { answered = seen })
  while (nvr.clock.pending < 1) await new Promise(resolve => setImmediate(resolve))
  await nvr.clock.advance(799)
  await new Promise(resolve => setImmediate(resolve))
  t.equal(answered, undefined)
  await nvr.clock.advance(1)
  await pending
  t.equal(answered?.status, 200)
  t.equal(nvr.requests().at(-1)?.status, 200)
})

t.test('a port taken while offline is said in the log; the device stays offline, never crashes', async t => {
  const nvr = await start(t)
  await nvr.setHealth({ state: 'offline', for: 1000 })
  const squatter = createServer()
  await new Promise<void>(resolve => squatter.listen(nvr.port, '127.0.0.1', resolve))
  await nvr.clock.advance(1000)
  t.match(nvr.health(), { state: 'offline', listening: false, port: nvr.port, reason: `port ${nvr.port} is in use by another program` })
  t.match(nvr.events().at(-1), { kind: 'health', state: 'offline', cause: 'port-taken', port: nvr.port })
  await new Promise(resolve => squatter.close(resolve))
  const report = await nvr.setHealth({ state: 'online' })
  t.equal(report.listening, true)
  t.equal((await get(nvr, LIST)).status, 200)
})

t.test('a schedule from the start is walked with the manual clock', async t => {
  const nvr = await start(t, { health: { pattern: 'reboot', every: 60_000, down: 1000, starting: 2000 } })
  const started = nvr.clock.now()
  t.strictSame(nvr.health().next.slice(0, 2), [
    { state: 'rebooting', down: 1000, starting: 2000, at: new Date(started + 60_000).toISOString() },
    { state: 'online', at: new Date(started + 63_000).toISOString() }
  ])
  await nvr.clock.advance(60_000)
  t.equal((await get(nvr, LIST)).error, 'ECONNREFUSED')
  await nvr.clock.advance(1000)
  t.equal((await get(nvr, LIST)).status, 503)
  await nvr.clock.advance(2000)
  t.equal((await get(nvr, LIST)).status, 200)
})

t.test('reset() brings the device online with its start-up data and its schedule from the start', async t => {
  const nvr = await start(t, { drift: 1000 })
  await nvr.clock.advance(3000)
  t.notSame(nvr.data(), DATA)
  await nvr.setHealth({ state: 'offline' })
  nvr.reset()
  await nvr.clock.advance(0)
  t.equal((await get(nvr, LIST)).status, 200)
  t.strictSame(nvr.data(), DATA)
  t.match(nvr.events(), [{ kind: 'health', state: 'online', cause: 'reset' }])
  t.equal(nvr.events().length, 1)
})

t.test('drift: the data served changes at each period, valid, with updated moving', async t => {
  const nvr = await start(t, { drift: 60_000, seed: 3 })
  const before = JSON.parse((await get(nvr, LIST)).body as string).content
  const times: string[] = []
  for (let minute = 1; minute <= 5; minute++) {
    await nvr.clock.advance(60_000)
    const edit = nvr.events().at(-1) as unknown as { time: string, edit: string, line: string }
    t.equal(edit.time, new Date(nvr.clock.now()).toISOString())
    times.push(edit.time)
    const served = JSON.parse((await get(nvr, LIST)).body as string).content as Array<{ id: string, updated: string }>
    if (edit.edit !== 'removed') t.equal(served.find(each => each.id === edit.line)?.updated, edit.time)
  }
  t.notSame(JSON.parse((await get(nvr, LIST)).body as string).content, before)
  t.equal(new Set(times).size, 5)
})

t.test('the handle refuses what it cannot do, in words', async t => {
  const nvr = await start(t)
  await t.rejects(nvr.setHealth({ state: 'offline', for: -5 }), HealthSpecError)
  await t.rejects(nvr.clock.advance(-1), new ClockError('clock.advance takes whole milliseconds from 0, not -1'))
  const real = await startMockNvr({ data: DATA })
  t.teardown(real.close)
  await t.rejects(real.clock.advance(10), new ClockError('the clock is real: start with clock \'manual\' to move it by hand'))
  t.equal(real.clock.pending, 0)
  t.ok(Math.abs(real.clock.now() - Date.now()) < 60_000)
})

t.test('a bad health option names the field', async t => {
  await t.rejects(startMockNvr({ data: DATA, health: { state: 'offline', for: 0 } as never }), new OptionsError('option health.for must be a whole number from 1 to 2147483647, not 0'))
  await t.rejects(startMockNvr({ data: DATA, health: [{ at: 5, state: 'online' }, { at: 1, state: 'offline' }] }), new OptionsError('option health[1].at must come after the previous step\'s at (5), not 1'))
  await t.rejects(startMockNvr({ data: DATA, health: { pattern: 'flapping', up: 10, down: 10, phase: 30 } }), new OptionsError('option health.phase must be less than the cycle (20 ms), not 30'))
})

/** A request sent, resolved once the server has read it (and the gate has it): its outcome to await. */
async function heldRequest (nvr: MockNvr): Promise<{ outcome: Promise<Seen> }> {
  const arrived = new Promise(resolve => nvr.app.server.once('request', () => setImmediate(resolve)))
  const outcome = get(nvr, LIST)
  await arrived
  return { outcome }
}
