import t, { type Test } from 'tap'
import { startMockFleet, startMockNvr } from '../../src/index.js'
import { steppedEnvelope, steppedList } from '../../src/admin-api/paging.js'
import { devicePage, FleetMerge } from '../../src/admin-api/journal-page.js'
import { RequestJournal } from '../../src/control/journal.js'
import { AUTH, SAMPLE_DATA } from '../helpers/app.js'
import { ADMIN, ADMIN_TOKEN } from '../helpers/control.js'

async function fleetOf (t: Test, count = 3) {
  const fleet = await startMockFleet({ count, data: SAMPLE_DATA, adminToken: ADMIN_TOKEN, clock: 'manual' })
  t.teardown(() => fleet.close())
  const admin = async (url: string) => {
    const response = await fleet.app.inject({ url, headers: ADMIN })
    return { status: response.statusCode, content: response.json().content, result: response.json().result }
  }
  const read = async (name: string) => { await (await fetch(`${fleet.device(name)?.url as string}/nvr/v1/cameras`, { headers: AUTH })).arrayBuffer() }
  return { fleet, admin, read }
}

const refusedQuery = (name: string) => ({ status: 400, result: { errorCode: 'INVALID_QUERY', problems: [{ path: name }] } })

t.test('GET /__admin/devices takes a page: limit, after, and answers the next page\'s after', async t => {
  const { admin } = await fleetOf(t, 5)
  const whole = await admin('/__admin/devices')
  t.strictSame(whole.content.devices.map((device: { name: string }) => device.name), ['nvr-001', 'nvr-002', 'nvr-003', 'nvr-004', 'nvr-005'], 'a small fleet is one page')
  t.match(whole.content, { total: 5, next: null })
  const first = await admin('/__admin/devices?limit=2')
  t.strictSame(first.content.devices.map((device: { name: string }) => device.name), ['nvr-001', 'nvr-002'])
  t.match(first.content, { total: 5, next: 'nvr-002' })
  const second = await admin(`/__admin/devices?limit=2&after=${first.content.next as string}`)
  t.strictSame(second.content.devices.map((device: { name: string }) => device.name), ['nvr-003', 'nvr-004'])
  const last = await admin(`/__admin/devices?limit=2&after=${second.content.next as string}`)
  t.strictSame(last.content.devices.map((device: { name: string }) => device.name), ['nvr-005'])
  t.equal(last.content.next, null)
  t.strictSame((await admin('/__admin/devices?after=nvr-005')).content, { devices: [], total: 5, next: null })
  for (const limit of ['0', '-1', '1.5', 'all', '100001', '']) t.match(await admin(`/__admin/devices?limit=${limit}`), refusedQuery('limit'), `limit=${limit}`)
  t.match(await admin('/__admin/devices?limit=1&limit=2'), refusedQuery('limit'))
  t.match(await admin('/__admin/devices?after=nvr-404'), { ...refusedQuery('after'), result: { errorMessage: 'The query parameter after must name a device of the fleet, and none is named "nvr-404".' } })
})

t.test('the fleet\'s journal is read a page at a time, in the order of the whole journal', async t => {
  const { fleet, admin, read } = await fleetOf(t)
  const clock = fleet.devices[0]?.clock as { advance: (ms: number) => Promise<void>, now: () => number }
  const start = clock.now()
  // Answers at the same time on several devices, and at several times.
  for (const step of [['nvr-003', 'nvr-001'], ['nvr-002'], ['nvr-001', 'nvr-003', 'nvr-002', 'nvr-001']]) {
    for (const name of step) await read(name)
    await clock.advance(1000)
  }
  const whole = fleet.requests()
  t.equal(whole.length, 7)
  t.strictSame(whole.map(entry => entry.device), ['nvr-001', 'nvr-003', 'nvr-002', 'nvr-001', 'nvr-001', 'nvr-002', 'nvr-003'], 'by end time, then by the device\'s place')
  const answered = await admin('/__admin/requests')
  t.strictSame(answered.content.requests, JSON.parse(JSON.stringify(whole)), 'the default page is the whole of a small fleet\'s journal')
  t.match(answered.content, { total: 7, more: false })

  const paged: unknown[] = []
  let since: string | undefined
  for (let page = 0; page < 5; page++) {
    const { content } = await admin(`/__admin/requests?limit=3${since === undefined ? '' : `&since=${since}`}`)
    paged.push(...content.requests)
    t.equal(content.more, paged.length < 7)
    since = content.next
    if (!content.more) break
  }
  t.strictSame(paged, JSON.parse(JSON.stringify(whole)))
  t.strictSame((await admin(`/__admin/requests?since=${since as string}`)).content, { requests: [], total: 7, next: since, more: false }, 'nothing new')
  await read('nvr-002')
  t.match((await admin(`/__admin/requests?since=${since as string}`)).content, { requests: [{ device: 'nvr-002' }], total: 8 }, 'what came since')

  const byTime = (await admin(`/__admin/requests?since=${new Date(start + 1000).toISOString()}`)).content.requests
  t.strictSame(byTime.map((entry: { device: string }) => entry.device), ['nvr-001', 'nvr-001', 'nvr-002', 'nvr-003', 'nvr-002'], 'an ISO time: the requests answered after it')
  for (const since of ['yesterday', '1_2', '2026-13-45T00:00:00Z']) t.match(await admin(`/__admin/requests?since=${since}`), refusedQuery('since'), since)
  t.match(await admin('/__admin/requests?limit=0'), refusedQuery('limit'))
  t.equal((await fleet.app.inject({ method: 'HEAD', url: '/__admin/requests', headers: ADMIN })).statusCode, 200)
})

t.test('a device\'s journal is read a page at a time from a request\'s number', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA, adminToken: ADMIN_TOKEN, journalSize: 5 })
  t.teardown(() => nvr.close())
  const admin = async (url: string) => (await nvr.app.inject({ url, headers: ADMIN })).json()
  const read = async (camera: string) => { await nvr.app.inject({ url: `/nvr/v1/cameras/${camera}`, headers: AUTH }) }
  for (let request = 1; request <= 8; request++) await read(`cam-${request}`)
  const whole = await admin('/__admin/requests')
  t.strictSame(whole.content.requests.map((entry: { path: string }) => entry.path), [4, 5, 6, 7, 8].map(n => `/nvr/v1/cameras/cam-${n}`), 'the whole journal when no page is asked')
  t.strictSame(Object.keys(whole.content), ['requests', 'total', 'capacity'], 'as it always was')
  const first = await admin('/__admin/requests?limit=2')
  t.strictSame(first.content.requests.map((entry: { path: string }) => entry.path), ['/nvr/v1/cameras/cam-4', '/nvr/v1/cameras/cam-5'])
  t.match(first.content, { next: 5, more: true })
  t.strictSame((await admin('/__admin/requests?limit=2&since=5')).content.requests.map((entry: { path: string }) => entry.path), ['/nvr/v1/cameras/cam-6', '/nvr/v1/cameras/cam-7'])
  t.strictSame((await admin('/__admin/requests?since=1')).content.requests.length, 5, 'requests the ring let go of are skipped')
  t.match((await admin('/__admin/requests?since=8')).content, { requests: [], next: 8, more: false })
  t.match((await admin('/__admin/requests?since=80')).content, { requests: [], next: 8 }, 'a number past the journal: from its newest')
  t.equal((await admin('/__admin/requests?since=2000-01-01T00:00:00.000Z')).content.requests.length, 5, 'an ISO time: the requests answered after it')
  t.match((await admin('/__admin/requests?since=2030-01-01T00:00:00Z')).content, { requests: [], next: 8 })
  t.match(await admin('/__admin/requests?since=-3'), { result: { errorCode: 'INVALID_QUERY', problems: [{ path: 'since' }] } })
  t.match(await admin('/__admin/requests?limit=x'), { result: { errorCode: 'INVALID_QUERY', problems: [{ path: 'limit' }] } })
  await nvr.resetRequests()
  t.match((await admin('/__admin/requests?since=5')).content, { requests: [], total: 0, next: 0 })
})

t.test('a stepped answer writes a slice of items per turn of the event loop, and the same JSON as at once', async t => {
  const items = Array.from({ length: 10 }, (_, index) => ({ index }))
  const write = async (itemsPerTurn: number, limit = 100) => {
    let turns = 0
    let at = 0
    let text = ''
    for await (const chunk of steppedEnvelope('items', () => items[at++], limit, () => ({ total: 10 }), { perTurn: itemsPerTurn, turn: async () => { turns++ } })) text += chunk
    return { turns, json: JSON.parse(text) }
  }
  const once = await write(100)
  t.equal(once.turns, 0)
  t.strictSame(once.json, { result: { success: true, httpCode: 200 }, content: { items, total: 10 } })
  const stepped = await write(3)
  t.equal(stepped.turns, 3)
  t.strictSame(stepped.json, once.json)
  t.strictSame((await write(3, 4)).json.content.items, items.slice(0, 4), 'no more than the limit')
  let text = ''
  for await (const chunk of steppedEnvelope('items', () => undefined, 5, () => ({}))) text += chunk
  t.strictSame(JSON.parse(text).content, { items: [] })
})

t.test('a stepped list: the envelope of its status with the items as its content, a slice per turn', async t => {
  const items = Array.from({ length: 7 }, (_, index) => ({ index }))
  let turns = 0
  let at = 0
  let text = ''
  for await (const chunk of steppedList(() => items[at++], 201, { perTurn: 3, turn: async () => { turns++ } })) text += chunk
  t.equal(turns, 2)
  t.strictSame(JSON.parse(text), { result: { success: true, httpCode: 201 }, content: items })
  text = ''
  for await (const chunk of steppedList(() => undefined)) text += chunk
  t.strictSame(JSON.parse(text), { result: { success: true, httpCode: 200 }, content: [] })
})

t.test('a page read while the journals move: a ring that let go of entries is read from its oldest, a cleared journal ends', async t => {
  let now = 0
  const journal = (name: string) => ({ name, journal: new RequestJournal(3, () => now) })
  const record = ({ journal }: { journal: RequestJournal }, url: string) => { now++; journal.record({ method: 'GET', url, params: {} }, 200, 0) }
  const [a, b] = [journal('a'), journal('b')] as const
  for (const url of ['/a1', '/a2', '/a3']) record(a, url)
  for (const url of ['/b1', '/b2', '/b3']) record(b, url)
  const merge = new FleetMerge([a, b])
  t.match(merge.next(), { device: 'a', url: '/a1' })
  // a's ring lets go of /a2, which the merge had not read; b is cleared.
  for (const url of ['/a4', '/a5']) record(a, url)
  b.journal.clear()
  t.match(merge.next(), { device: 'a', url: '/a3' }, 'read from a\'s oldest, up to what it held when asked')
  t.equal(merge.next(), undefined, 'b is done')
  t.equal(merge.more, false)
  t.equal(merge.last, '3_0_3')
  for (const url of ['/a6', '/a7', '/a8', '/a9']) record(a, url)
  const late = new FleetMerge([a])
  for (const url of ['/a10', '/a11', '/a12']) record(a, url)
  t.equal(late.next(), undefined, 'a ring that let go of all it held')

  const device = journal('d')
  for (const url of ['/d1', '/d2', '/d3']) record(device, url)
  const page = devicePage(device.journal, { limit: '3' })
  t.match(page.next(), { url: '/d1' })
  device.journal.clear()
  t.equal(page.next(), undefined, 'a clear ends a device\'s page')
  t.match(page.rest(), { total: 0, next: 1, more: false })
})
