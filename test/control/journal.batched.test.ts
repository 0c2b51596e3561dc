import t from 'tap'
import { startMockNvr } from '../../src/index.js'
import { INTERNED_URLS, RequestJournal } from '../../src/control/journal.js'
import { AUTH } from '../helpers/app.js'
import { ADMIN, ADMIN_TOKEN, buildControlled } from '../helpers/control.js'

t.test('each request is recorded with method, path, params, authentication, status and time', async t => {
  const { app, control } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  const before = Date.now()
  await app.inject({ url: '/nvr/v1/cameras/cam-1/counting_lines?limit=5', headers: AUTH })
  await app.inject({ method: 'HEAD', url: '/nvr/v1/cameras/cam-2/counting_lines/line%2D3', headers: AUTH })
  const entries = control.requests()
  t.equal(entries.length, 2)
  t.strictSame(entries.map(({ time, durationMs, ...entry }) => entry), [
    { method: 'GET', path: '/nvr/v1/cameras/cam-1/counting_lines', url: '/nvr/v1/cameras/cam-1/counting_lines?limit=5', params: { id: 'cam-1' }, authenticated: true, status: 200, fault: null },
    { method: 'HEAD', path: '/nvr/v1/cameras/cam-2/counting_lines/line%2D3', url: '/nvr/v1/cameras/cam-2/counting_lines/line%2D3', params: { id: 'cam-2', line_id: 'line-3' }, authenticated: true, status: 200, fault: null }
  ])
  for (const { time, durationMs } of entries) {
    t.match(time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    t.ok(Date.parse(time) >= before - 1 && Date.parse(time) <= Date.now(), 'the arrival time is when the test ran')
    t.ok(durationMs >= 0)
  }
})

t.test('an unknown path has no params: the router\'s wildcard is not shown', async t => {
  const { app, control } = await buildControlled(t)
  await app.inject({ url: '/nvr/v1/cameras/cam-1/lines/line-1', headers: AUTH })
  await app.inject({ url: '/nvr/v1/cameras/cam-1/lines' })
  await app.inject({ url: '/elsewhere/x' })
  await app.inject({ url: '/docs/static/index.html' })
  t.strictSame(control.requests().map(({ params }) => params), [{}, {}, {}, {}])
})

t.test('authenticated says whether the bearer token was accepted, and is null where none is needed', async t => {
  const { app, control } = await buildControlled(t)
  await app.inject({ url: '/nvr/v1/cameras/cam-1/counting_lines' })
  await app.inject({ url: '/nvr/v1/cameras/cam-1/counting_lines', headers: { authorization: 'Bearer wrong' } })
  await app.inject({ url: '/nvr/v1/cameras/cam-9/counting_lines', headers: AUTH })
  await app.inject({ method: 'DELETE', url: '/nvr/v1/cameras/cam-1/counting_lines', headers: AUTH })
  await app.inject({ url: '/nvr/v1/cameras/%E0%A4%A/counting_lines', headers: AUTH })
  await app.inject({ url: '/nvr/v1', headers: AUTH })
  await app.inject({ method: 'OPTIONS', url: '/nvr/v1/cameras/cam-1/counting_lines', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' } })
  await app.inject({ url: '/healthz' })
  await app.inject({ url: '/nvr/v10/cameras' })
  control.injectFault({ status: 401, times: 1 })
  await app.inject({ url: '/nvr/v1/cameras/cam-1/counting_lines', headers: AUTH })
  t.strictSame(control.requests().map(({ status, authenticated, fault }) => [status, authenticated, fault]), [
    [401, false, null],
    [401, false, null],
    [404, true, null],
    [405, true, null],
    [400, true, null],
    [404, true, null],
    [204, null, null],
    [200, null, null],
    [404, null, null],
    [401, true, 'fault-1']
  ])
})

t.test('the journal keeps the last N requests, dropping the oldest first', async t => {
  const { app, control } = await buildControlled(t, { journalSize: 3 })
  for (const camera of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) {
    await app.inject({ url: `/nvr/v1/cameras/${camera}/counting_lines`, headers: AUTH })
  }
  t.strictSame(control.requests().map(entry => entry.params.id), ['e', 'f', 'g'])
  t.equal(control.journal.total, 7)
  t.equal(control.journal.capacity, 3)
  control.resetRequests()
  t.strictSame(control.requests(), [])
  t.equal(control.journal.total, 0)
  await app.inject({ url: '/nvr/v1/cameras/h/counting_lines', headers: AUTH })
  t.strictSame(control.requests().map(entry => entry.params.id), ['h'], 'recording starts again after a clear')
})

t.test('a journal of size 0 records nothing', async t => {
  const { app, control } = await buildControlled(t, { journalSize: 0 })
  await app.inject({ url: '/nvr/v1/cameras/cam-1/counting_lines', headers: AUTH })
  t.strictSame(control.requests(), [])
})

t.test('admin calls are not recorded, so reading the journal does not change it', async t => {
  const { app, control } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  await app.inject({ url: '/nvr/v1/cameras/cam-1/counting_lines', headers: AUTH })
  await app.inject({ url: '/__admin/requests', headers: ADMIN })
  await app.inject({ url: '/__admin/requests' })
  t.equal(control.requests().length, 1)
})

t.test('the startMockNvr handle reads and clears the journal of real requests', async t => {
  const nvr = await startMockNvr({ data: { cameras: [{ id: 'cam-1' }] }, journalSize: 10 })
  t.teardown(() => nvr.close())
  await fetch(`${nvr.url}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH })
  t.match(nvr.requests(), [{ method: 'GET', path: '/nvr/v1/cameras/cam-1/counting_lines', params: { id: 'cam-1' }, authenticated: true, status: 200 }])
  nvr.resetRequests()
  t.strictSame(nvr.requests(), [])
})

t.test('the journal makes its slots as requests come, and keeps the last N in order as it grows and wraps', async t => {
  const journal = new RequestJournal(40)
  const record = (index: number) => journal.record({ method: 'GET', url: `/nvr/v1/cameras/cam-${index}/counting_lines`, params: { id: `cam-${index}` } }, 200, index)
  for (let index = 1; index <= 17; index++) record(index)
  t.strictSame(journal.entries().map(entry => entry.params.id), Array.from({ length: 17 }, (_, index) => `cam-${index + 1}`), 'past its first 16 slots')
  for (let index = 18; index <= 100; index++) record(index)
  t.strictSame(journal.entries().map(entry => entry.params.id), Array.from({ length: 40 }, (_, index) => `cam-${index + 61}`), 'the last 40, oldest first')
  t.strictSame(journal.entries().map(entry => entry.durationMs), Array.from({ length: 40 }, (_, index) => index + 61))
  t.equal(journal.total, 100)
})

t.test('requests to a URL seen before share one record of it, and read back exactly as recorded', async t => {
  const journal = new RequestJournal(10)
  // Fresh strings and objects each time, as Node's parser and the router make them.
  const url = (query: string) => ['/nvr/v1/cameras/cam-1/counting_lines', query].join('')
  journal.record({ method: 'GET', url: url(''), params: { id: 'cam-1' } }, 200, 1)
  journal.record({ method: 'HEAD', url: url(''), params: { id: 'cam-1' } }, 200, 2)
  journal.record({ method: 'GET', url: url('?a=1'), params: { id: 'cam-1' } }, 200, 3)
  // The same URL refused before routing, with no parameters, and routed as an unknown path, with the wildcard.
  journal.record({ method: 'GET', url: url(''), params: undefined }, 400, 4)
  journal.record({ method: 'GET', url: url(''), params: { '*': 'x' } }, 404, 5)
  journal.record({ method: 'GET', url: url(''), params: { id: 'cam-1', line_id: 'x' } }, 404, 5)
  journal.record({ method: 'GET', url: url(''), params: { id: 'cam-1' } }, 200, 6)
  t.equal(journal.interned, 2, 'one record per URL and parameters first seen: the same URL with other parameters is kept apart')
  t.strictSame(journal.entries().map(({ time, authenticated, fault, ...entry }) => entry), [
    { method: 'GET', path: '/nvr/v1/cameras/cam-1/counting_lines', url: url(''), params: { id: 'cam-1' }, status: 200, durationMs: 1 },
    { method: 'HEAD', path: '/nvr/v1/cameras/cam-1/counting_lines', url: url(''), params: { id: 'cam-1' }, status: 200, durationMs: 2 },
    { method: 'GET', path: '/nvr/v1/cameras/cam-1/counting_lines', url: url('?a=1'), params: { id: 'cam-1' }, status: 200, durationMs: 3 },
    { method: 'GET', path: '/nvr/v1/cameras/cam-1/counting_lines', url: url(''), params: {}, status: 400, durationMs: 4 },
    { method: 'GET', path: '/nvr/v1/cameras/cam-1/counting_lines', url: url(''), params: {}, status: 404, durationMs: 5 },
    { method: 'GET', path: '/nvr/v1/cameras/cam-1/counting_lines', url: url(''), params: { id: 'cam-1', line_id: 'x' }, status: 404, durationMs: 5 },
    { method: 'GET', path: '/nvr/v1/cameras/cam-1/counting_lines', url: url(''), params: { id: 'cam-1' }, status: 200, durationMs: 6 }
  ])
  const first = journal.entries()[0]
  if (first !== undefined) first.params.id = 'changed'
  t.equal(journal.entries()[0]?.params.id, 'cam-1', 'an entry read is the reader\'s own: changing it changes no record')
})

t.test('unique URLs cannot grow the table of URLs seen: past its bound it starts again', async t => {
  const journal = new RequestJournal(5000)
  for (let index = 0; index < 3 * INTERNED_URLS + 7; index++) {
    journal.record({ method: 'GET', url: `/nvr/v1/cameras/cam-${index}/counting_lines`, params: { id: `cam-${index}` } }, 200, 0)
  }
  t.ok(journal.interned <= INTERNED_URLS, `${journal.interned} URLs held, at most ${INTERNED_URLS}`)
  const entries = journal.entries()
  t.equal(entries.length, 3 * INTERNED_URLS + 7)
  t.ok(entries.every((entry, index) => entry.url === `/nvr/v1/cameras/cam-${index}/counting_lines` && entry.params.id === `cam-${index}`), 'every entry as recorded')
})

t.test('clear() gives the journal\'s slots and its URLs back: an emptied journal holds what a new one does', async t => {
  const journal = new RequestJournal(100)
  for (let index = 0; index < 150; index++) journal.record({ method: 'GET', url: `/nvr/v1/cameras/cam-${index % 3}/counting_lines`, params: { id: `cam-${index % 3}` } }, 200, 0)
  t.equal(journal.slots, 100)
  t.equal(journal.interned, 3)
  journal.clear()
  t.equal(journal.slots, 0)
  t.equal(journal.interned, 0)
  t.strictSame(journal.entries(), [])
  journal.record({ method: 'GET', url: '/healthz', params: {} }, 200, 0)
  t.strictSame(journal.entries().map(entry => entry.url), ['/healthz'])
  t.equal(journal.total, 1)
  t.equal(journal.slots, 16, 'made again as requests come')
})

t.test('methods, faults and contract violations read back as recorded, however rare or many', async t => {
  const journal = new RequestJournal(600)
  const methods = Array.from({ length: 300 }, (_, index) => `M${index}`)
  for (const [index, method] of methods.entries()) {
    journal.record({ method, url: '/healthz', params: {}, ...(index % 7 === 3 ? { injectedFault: `fault-${index}` } : {}), ...(index % 11 === 5 ? { contractViolations: index } : {}) }, 200, 0)
  }
  journal.record({ method: 'GET', url: '/healthz', params: {} }, 200, 0)
  const entries = journal.entries()
  t.strictSame(entries.map(entry => entry.method), [...methods, 'GET'], 'past the table of methods too')
  t.strictSame(entries.map(entry => entry.fault), [...methods.map((_, index) => index % 7 === 3 ? `fault-${index}` : null), null])
  t.strictSame(entries.map(entry => entry.contractViolations), [...methods.map((_, index) => index % 11 === 5 ? index : undefined), undefined])
})
