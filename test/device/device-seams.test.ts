import { request as httpRequest } from 'node:http'
import { connect, createServer, type Socket } from 'node:net'
import t, { type Test } from 'tap'
import { Agent, request } from 'undici'
import { startMockFleet, type MockFleet } from '../../src/fleet/start-mock-fleet.js'
import { startMockNvr, type MockNvr } from '../../src/start/start-mock-nvr.js'
import { AUTH, SAMPLE_DATA } from '../helpers/app.js'
import { ADMIN, ADMIN_TOKEN } from '../helpers/control.js'
import { within } from '../helpers/bounded.js'

const LIST = '/nvr/v1/cameras/cam-1/counting_lines'
// Bounds only a call that would otherwise hang for good; it never decides a pass.
const bound = () => ({ signal: AbortSignal.timeout(10_000) })

/** One request on a fresh connection: its status, or the error's code. */
function status (port: number, path = LIST): Promise<number | string> {
  return new Promise(resolve => {
    const sent = httpRequest({ host: '127.0.0.1', port, path, headers: AUTH, agent: false }, response => {
      response.resume()
      response.on('end', () => resolve(response.statusCode as number))
    })
    sent.on('error', error => resolve((error as NodeJS.ErrnoException).code ?? error.message))
    sent.end()
  })
}

/** A request sent on a raw socket that the device holds; resolves when the device drops it. */
/** A request held by an unreachable device; `dropped` resolves, once the connection closes, with what it received. */
async function holdRequest (port: number): Promise<{ socket: Socket, dropped: Promise<string> }> {
  const socket = connect(port, '127.0.0.1')
  await within('the held request\'s connection', new Promise(resolve => socket.once('connect', resolve)))
  let received = ''
  socket.setEncoding('latin1').on('data', (chunk: string) => { received += chunk })
  const dropped = within('the held connection dropped', new Promise<string>(resolve => socket.once('close', () => resolve(received))))
  // Awaited by every test that holds one; should a test fail first, its late rejection is not another failure.
  dropped.catch(() => {})
  socket.on('error', () => {})
  socket.write(`GET ${LIST} HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH.authorization}\r\n\r\n`)
  return { socket, dropped }
}

async function fleetOf (t: Test, options: Partial<Parameters<typeof startMockFleet>[0]>): Promise<MockFleet> {
  const fleet = await startMockFleet({ data: SAMPLE_DATA, clock: 'manual', adminToken: ADMIN_TOKEN, ...options } as Parameters<typeof startMockFleet>[0])
  t.teardown(() => fleet.close())
  return fleet
}

const fleetAdmin = (fleet: MockFleet, method: string, path: string, body?: unknown) =>
  fetch(`${fleet.controlUrl}/__admin${path}`, { method, ...bound(), headers: { ...ADMIN, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })

const UNREACHABLE_A_WHILE = [{ at: 0, state: 'online' }, { at: 1000, state: 'unreachable' }, { at: 5000, state: 'online' }]

for (const place of ['first', 'last'] as const) {
  t.test(`the control address answers while a client holds a request on the ${place} device, unreachable by its schedule`, async t => {
    const devices = [{ name: 'a' }, { name: 'b' }, { name: 'c' }]
    const index = place === 'first' ? 0 : 2
    devices[index] = { name: devices[index]?.name as string, health: UNREACHABLE_A_WHILE } as never
    const fleet = await fleetOf(t, { devices })
    t.equal((await fleetAdmin(fleet, 'POST', '/clock', { advance: 2000 })).status, 200)
    const device = fleet.devices[index] as MockNvr
    t.equal(device.health().state, 'unreachable')
    const held = await holdRequest(device.port)
    t.equal((await fleetAdmin(fleet, 'GET', '/devices')).status, 200, 'the control address answers while the device holds')
    t.equal((await fleetAdmin(fleet, 'POST', '/clock', { advance: 4000 })).status, 200, 'the clock moves past the step')
    t.equal(await held.dropped, '', 'leaving unreachable drops the connection it held, unanswered')
    t.equal(device.health().state, 'online')
    t.equal(await status(device.port), 200)
  })

  t.test(`the control address answers while a client holds a request on the ${place} device, unreachable on command`, async t => {
    const fleet = await fleetOf(t, { count: 3 })
    const device = fleet.devices[place === 'first' ? 0 : 2] as MockNvr
    await device.setHealth({ state: 'unreachable', for: 3000 })
    const held = await holdRequest(device.port)
    t.equal((await fleetAdmin(fleet, 'POST', '/clock', { advance: 3000 })).status, 200)
    t.equal(await held.dropped, '', 'dropped, unanswered')
    t.equal(await status(device.port), 200)
  })
}

t.test('fleet.reset() resolves once every port is back: a request right after it is answered', async t => {
  const fleet = await fleetOf(t, { count: 2 })
  const device = fleet.devices[1] as MockNvr
  for (let round = 0; round < 5; round++) {
    await device.setHealth({ state: 'offline' })
    t.equal(await status(device.port), 'ECONNREFUSED')
    await fleet.reset()
    t.match(device.health(), { state: 'online', listening: true })
    t.equal(await status(device.port), 200, `round ${round}: answered at once`)
  }
})

t.test('POST /__admin/reset on the control address answers once every port is back', async t => {
  const fleet = await fleetOf(t, { count: 2 })
  await fleet.devices[0]?.setHealth({ state: 'offline' })
  t.equal((await fleetAdmin(fleet, 'POST', '/reset')).status, 200)
  t.equal(await status(fleet.devices[0]?.port as number), 200)
})

t.test('a single mock-nvr: reset() resolves once its port is back', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA, clock: 'manual' })
  t.teardown(nvr.close)
  await nvr.setHealth({ state: 'offline' })
  await nvr.reset()
  t.equal(await status(nvr.port), 200)
})

t.test('a device whose port was taken while offline reports offline, with the port and the reason, and tries again on the next change', async t => {
  const fleet = await fleetOf(t, { count: 1 })
  const device = fleet.devices[0] as MockNvr
  await device.setHealth({ state: 'offline' })
  const squatter = createServer()
  await new Promise<void>(resolve => squatter.listen(device.port, '127.0.0.1', resolve))
  const report = await device.setHealth({ state: 'online' })
  t.match(report, { state: 'offline', listening: false, port: device.port, reason: /in use/ })
  t.match(device.health(), { state: 'offline', listening: false, port: device.port })
  const listed = await (await fleetAdmin(fleet, 'GET', '/devices')).json() as { content: { devices: Array<{ state: string }> } }
  t.equal(listed.content.devices[0]?.state, 'offline (port taken)')
  await new Promise(resolve => squatter.close(resolve))
  const again = await device.setHealth({ state: 'online' })
  t.match(again, { state: 'online', listening: true })
  t.notOk('reason' in again, 'the reason goes once the port is back')
  t.equal(await status(device.port), 200)
})

t.test('going offline ends kept-alive connections: the next request on them is refused as on a powered-off device', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA, clock: 'manual' })
  t.teardown(nvr.close)
  const agent = new Agent({ keepAliveTimeout: 60_000 })
  t.teardown(() => agent.close())
  const first = await request(`${nvr.url}${LIST}`, { headers: AUTH, dispatcher: agent })
  await first.body.text()
  t.equal(first.statusCode, 200)
  await nvr.setHealth({ state: 'offline' })
  const error = await request(`${nvr.url}${LIST}`, { headers: AUTH, dispatcher: agent }).then(() => undefined, (error: NodeJS.ErrnoException) => error)
  t.equal(error?.code, 'ECONNREFUSED')
})

t.test('a single mock-nvr on the manual clock: its admin API answers while unreachable, and the clock ends the state', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA, clock: 'manual', adminToken: ADMIN_TOKEN })
  t.teardown(nvr.close)
  const admin = (method: string, path: string, body?: unknown) =>
    fetch(`${nvr.url}/__admin${path}`, { method, ...bound(), headers: { ...ADMIN, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
  t.equal((await admin('PUT', '/health', { state: 'unreachable', for: 60000 })).status, 200)
  const held = await holdRequest(nvr.port)
  t.equal((await admin('GET', '/health')).status, 200, 'the admin API is not held')
  t.equal((await admin('POST', '/clock', { advance: 60000 })).status, 200)
  t.equal(await held.dropped, '', 'dropped, unanswered')
  t.equal(await status(nvr.port), 200)
})

t.test('a single mock-nvr on the manual clock refuses over HTTP a state that would close the port its admin API shares', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA, clock: 'manual', adminToken: ADMIN_TOKEN })
  t.teardown(nvr.close)
  for (const body of [{ state: 'offline', for: 60000 }, { state: 'offline' }, { state: 'rebooting', down: 1000, starting: 1000 }]) {
    const answer = await fetch(`${nvr.url}/__admin/health`, { method: 'PUT', ...bound(), headers: { ...ADMIN, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    t.equal(answer.status, 409, body.state)
    t.match(await answer.json(), { result: { errorCode: 'HEALTH_LOCKS_OUT', errorMessage: new RegExp(`cannot go ${body.state} here`) } })
  }
  t.match(nvr.health(), { state: 'online', listening: true }, 'nothing changed')
  await nvr.setHealth({ state: 'offline' })
  t.equal(await status(nvr.port), 'ECONNREFUSED', 'the library, which moves the clock itself, may')
  await nvr.clock.advance(0)
  await nvr.reset()
  t.equal(await status(nvr.port), 200)
})

t.test('every handle names its device: a fleet device by its name, a single mock-nvr as nvr', async t => {
  const fleet = await fleetOf(t, { devices: [{ name: 'lobby' }, { name: 'dock' }] })
  t.strictSame(fleet.devices.map(device => device.name), ['lobby', 'dock'])
  t.equal(fleet.device('dock')?.name, 'dock')
  const nvr = await startMockNvr({ data: SAMPLE_DATA })
  t.teardown(nvr.close)
  t.equal(nvr.name, 'nvr')
})
