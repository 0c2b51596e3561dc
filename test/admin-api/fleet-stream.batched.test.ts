import { get, type IncomingMessage } from 'node:http'
import t, { type Test } from 'tap'
import { startMockFleet, type MockFleet } from '../../src/fleet/start-mock-fleet.js'
import { fleetSource, JournalStream } from '../../src/admin-api/journal-stream.js'
import { RequestJournal } from '../../src/control/journal.js'
import { DeviceEvents } from '../../src/control/device-events.js'
import type { DeviceRoster } from '../../src/device/roster.js'
import { AUTH, SAMPLE_DATA } from '../helpers/app.js'
import { ADMIN, ADMIN_TOKEN } from '../helpers/control.js'
import { parseEvents, readUntil, type ServerSentEvent } from '../helpers/event-stream.js'

const dataOf = (event: ServerSentEvent) => JSON.parse(event.data) as { device?: string, [field: string]: unknown }

// On a connection of its own, which closes with it (see journal-stream.test.ts).
function openStream (url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    get(url, { headers: ADMIN, agent: false }, resolve).once('error', reject)
  })
}

async function fleetOf (t: Test): Promise<MockFleet> {
  const fleet = await startMockFleet({ count: 3, data: SAMPLE_DATA, adminToken: ADMIN_TOKEN, clock: 'manual' })
  t.teardown(() => fleet.close())
  return fleet
}

const cameraOf = (fleet: MockFleet) => (fleet.devices[0]?.data().cameras as Array<{ id: string }>)[0]?.id as string
const read = async (fleet: MockFleet, name: string) => {
  await (await fetch(`${fleet.device(name)?.url as string}/nvr/v1/cameras/${cameraOf(fleet)}/counting_lines`, { headers: AUTH })).arrayBuffer()
}

t.test('the fleet stream carries every device\'s requests and health events, each naming its device, while a device\'s own stream carries its own', async t => {
  const fleet = await fleetOf(t)
  const fleetResponse = await openStream(`${fleet.controlUrl}/__admin/requests/stream`)
  const deviceResponse = await openStream(`${fleet.controlUrl}/__admin/devices/nvr-002/requests/stream`)
  t.equal(fleetResponse.headers['content-type'], 'text/event-stream; charset=utf-8')
  const fleetEvents = parseEvents(fleetResponse)[Symbol.asyncIterator]()
  const deviceEvents = parseEvents(deviceResponse)[Symbol.asyncIterator]()
  t.strictSame(dataOf((await readUntil(fleetEvents, event => event.event === 'ready'))[0]!), { devices: 3, total: 0 })

  await read(fleet, 'nvr-001')
  await read(fleet, 'nvr-002')
  const offline = await fetch(`${fleet.controlUrl}/__admin/devices/nvr-003/health`, { method: 'PUT', headers: { ...ADMIN, 'content-type': 'application/json' }, body: '{"state":"offline"}' })
  t.equal(offline.status, 200)
  await read(fleet, 'nvr-001')

  const fromFleet = await readUntil(fleetEvents, event => event.event === 'request' && dataOf(event).seq === 2)
  t.match(fromFleet.map(event => ({ event: event.event, id: event.id, ...dataOf(event) })), [
    { event: 'request', id: undefined, device: 'nvr-001', seq: 1, status: 200 },
    { event: 'request', device: 'nvr-002', seq: 1, status: 200 },
    { event: 'health', device: 'nvr-003', state: 'offline', cause: 'command' },
    { event: 'request', device: 'nvr-001', seq: 2 }
  ])
  t.equal(Object.keys(dataOf(fromFleet[0]!))[0], 'device', 'the device first')

  const fromDevice = await readUntil(deviceEvents, event => event.event === 'request')
  t.strictSame(fromDevice.map(event => event.event), ['ready', 'request'])
  t.match(dataOf(fromDevice[1]!), { seq: 1, status: 200 })
  t.notOk('device' in dataOf(fromDevice[1]!), 'a device\'s own stream names no device')

  fleetResponse.destroy()
  deviceResponse.destroy()
})

t.test('/__admin/events/stream carries every device\'s health and data events alone, each naming its device', async t => {
  const fleet = await startMockFleet({ count: 3, data: SAMPLE_DATA, adminToken: ADMIN_TOKEN, clock: 'manual', drift: 5000 })
  t.teardown(() => fleet.close())
  const response = await openStream(`${fleet.controlUrl}/__admin/events/stream`)
  t.equal(response.statusCode, 200)
  const events = parseEvents(response)[Symbol.asyncIterator]()
  await readUntil(events, event => event.event === 'ready')
  await read(fleet, 'nvr-001')
  await fleet.device('nvr-002')?.setHealth({ state: 'rebooting', down: 1000, starting: 1000 })
  await fleet.clock.advance(1000)
  const health = await readUntil(events, event => dataOf(event).phase === 'starting')
  t.match(health.map(dataOf), [
    { device: 'nvr-002', kind: 'health', state: 'rebooting', phase: 'down', cause: 'command' },
    { device: 'nvr-002', kind: 'health', state: 'rebooting', phase: 'starting' }
  ], 'no request among them')
  await fleet.clock.advance(4000)
  const later = await readUntil(events, event => event.event === 'data' && dataOf(event).device === 'nvr-003')
  t.strictSame(later.filter(event => event.event === 'data').map(event => dataOf(event).device), ['nvr-001', 'nvr-002', 'nvr-003'], 'each device\'s edit, named')
  t.notOk(later.some(event => event.event === 'request'))
  response.destroy()
})

t.test('the fleet stream has its own limit of streams, apart from each device\'s; HEAD is bodiless; it needs the admin token', async t => {
  const fleet = await fleetOf(t)
  const url = `${fleet.controlUrl}/__admin/requests/stream`
  const streams = await Promise.all(Array.from({ length: 8 }, async () => await openStream(url)))
  t.strictSame(streams.map(response => response.statusCode), Array(8).fill(200))
  const refused = await fetch(url, { headers: ADMIN })
  t.equal(refused.status, 503)
  t.match(await refused.json(), { result: { errorCode: 'TOO_MANY_STREAMS' } })
  const device = await openStream(`${fleet.controlUrl}/__admin/devices/nvr-001/requests/stream`)
  t.equal(device.statusCode, 200, 'a device\'s stream still opens')
  device.destroy()
  for (const response of streams) response.destroy()
  t.equal((await fleet.app.inject({ method: 'HEAD', url: '/__admin/requests/stream', headers: ADMIN })).body, '')
  t.equal((await fleet.app.inject({ url: '/__admin/requests/stream' })).statusCode, 401)
  t.equal((await fleet.app.inject({ method: 'POST', url: '/__admin/requests/stream', headers: ADMIN })).statusCode, 405)
})

t.test('closing the fleet ends its stream', async t => {
  const fleet = await startMockFleet({ count: 2, data: SAMPLE_DATA, adminToken: ADMIN_TOKEN })
  const response = await openStream(`${fleet.controlUrl}/__admin/requests/stream`)
  const events = parseEvents(response)[Symbol.asyncIterator]()
  await readUntil(events, event => event.event === 'ready')
  await fleet.close()
  t.equal((await events.next()).done, true)
})

t.test('a fleet stream that is not read keeps a bounded queue and says what it dropped; an idle one gets heartbeats', async t => {
  const devices = ['nvr-a', 'nvr-b'].map(name => ({ name, journal: new RequestJournal(10), events: new DeviceEvents() }))
  const testRoster = { entries: devices.map(device => ({ device, url: '' })), find: () => undefined } as unknown as DeviceRoster
  const stream = new JournalStream(fleetSource(testRoster), { queueLimit: 2, heartbeatMs: 5 })
  const listener = stream.open()!
  // More than the readable's buffer and the queue hold, unread.
  for (let index = 0; index < 500; index++) devices[index % 2]!.journal.record({ method: 'GET', url: `/${index}`, params: {} }, 200, 0)
  devices[1]!.events.record({ kind: 'data', time: '2026-01-01T00:00:00.000Z', edit: 'renamed', camera: 'cam-1', line: 'line-1' })
  t.ok(listener.dropped > 0)
  const holdOpen = setInterval(() => {}, 1000)
  t.teardown(() => clearInterval(holdOpen))
  const events = parseEvents(listener.readable)[Symbol.asyncIterator]()
  const read = await readUntil(events, event => event.event === ':')
  t.ok(read.some(event => event.event === 'dropped'))
  t.strictSame(new Set(read.filter(event => event.event === 'request').map(event => dataOf(event).device)), new Set(['nvr-a', 'nvr-b']))
  listener.readable.destroy()
  await new Promise(resolve => listener.readable.once('close', resolve))
  t.strictSame(devices.map(device => [device.journal.listeners.tell, device.events.listeners.tell]), [[null, null], [null, null]])
})

t.test('a big fleet is listened to a slice of devices per turn: a stream gets its ready event once every device is heard, and a stop on the way unhears them all', async t => {
  const devices = Array.from({ length: 250 }, (_, index) => ({ name: `nvr-${index}`, journal: new RequestJournal(10), events: new DeviceEvents() }))
  const testRoster = { entries: devices.map(device => ({ device, url: '' })), find: () => undefined } as unknown as DeviceRoster
  const heard = () => devices.filter(device => device.journal.listeners.tell !== null).length
  const stream = new JournalStream(fleetSource(testRoster))
  const listener = stream.open()!
  t.equal(heard(), 100, 'the first slice at once, the rest on later turns')
  // A request of a device already heard, before the ready event: not this stream's.
  devices[0]!.journal.record({ method: 'GET', url: '/before', params: {} }, 200, 0)
  const events = parseEvents(listener.readable)[Symbol.asyncIterator]()
  const [ready] = await readUntil(events, event => event.event === 'ready')
  t.equal(heard(), 250)
  t.match(dataOf(ready!), { devices: 250 })
  devices[249]!.journal.record({ method: 'GET', url: '/after', params: {} }, 200, 0)
  const [request] = await readUntil(events, event => event.event === 'request')
  t.match(dataOf(request!), { device: 'nvr-249', url: '/after' })
  listener.readable.destroy()
  await new Promise(resolve => listener.readable.once('close', resolve))
  t.equal(heard(), 0)

  // Closed before every device is heard: the ones heard so far are let go, the rest never heard.
  const early = stream.open()!
  t.equal(stream.size, 1)
  stream.closeAll()
  early.readable.resume()
  await new Promise(resolve => early.readable.once('close', resolve))
  t.equal(heard(), 0)
  await new Promise(resolve => setImmediate(resolve))
  await new Promise(resolve => setImmediate(resolve))
  t.equal(heard(), 0, 'the slices after the stop hear nothing')
})
