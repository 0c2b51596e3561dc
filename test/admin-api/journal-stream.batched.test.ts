import { once } from 'node:events'
import { get, type IncomingMessage } from 'node:http'
import { text } from 'node:stream/consumers'
import t from 'tap'
import { deviceSource, JournalStream, type StreamedEntry } from '../../src/admin-api/journal-stream.js'
import { RequestJournal } from '../../src/control/journal.js'
import { until } from '../helpers/bounded.js'
import { AUTH } from '../helpers/app.js'
import { ADMIN, ADMIN_TOKEN, buildControlled } from '../helpers/control.js'
import { parseEvents, readUntil, type ServerSentEvent } from '../helpers/event-stream.js'

const LIST = '/nvr/v1/cameras/cam-1/counting_lines'
const request = (url: string) => ({ method: 'GET', url, params: {} })
const entryOf = (event: ServerSentEvent) => JSON.parse(event.data) as StreamedEntry

/**
 * GET of the stream on a connection of its own, which closes with it. Not fetch: its pool opens spare
 * connections after a cancelled body, and a connection without a request holds a close open for the
 * headers time-out.
 */
function openStream (origin: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    get(`${origin}/__admin/requests/stream`, { headers: ADMIN, agent: false }, resolve).once('error', reject)
  })
}

t.test('the journal pays nothing while no stream is open, and its hook is unset again when the last one closes', async t => {
  const journal = new RequestJournal(10)
  const stream = new JournalStream(deviceSource(journal))
  t.equal(journal.listeners.tell, null)
  const first = stream.open()
  const second = stream.open()
  t.type(journal.listeners.tell, 'function')
  t.equal(stream.size, 2)
  first?.readable.destroy()
  await once(first!.readable, 'close')
  t.type(journal.listeners.tell, 'function', 'one stream is still open')
  second?.readable.destroy()
  await once(second!.readable, 'close')
  t.equal(journal.listeners.tell, null)
  t.equal(stream.size, 0)
})

t.test('a stream gives a ready event, then each request recorded, in order, numbered since the last clear', async t => {
  const journal = new RequestJournal(10)
  journal.record(request('/before'), 200, 1)
  const listener = new JournalStream(deviceSource(journal)).open()!
  const events = parseEvents(listener.readable)[Symbol.asyncIterator]()
  for (const path of ['/a', '/b', '/c']) journal.record(request(path), 404, 2)
  const read = await readUntil(events, event => event.id === '4')
  t.strictSame(read.map(event => event.event), ['ready', 'request', 'request', 'request'])
  t.strictSame(JSON.parse(read[0]!.data), { total: 1, capacity: 10 })
  t.strictSame(read.slice(1).map(entryOf).map(({ seq, path, status }) => ({ seq, path, status })),
    [{ seq: 2, path: '/a', status: 404 }, { seq: 3, path: '/b', status: 404 }, { seq: 4, path: '/c', status: 404 }])
  listener.readable.destroy()
})

t.test('a listener that does not read holds a bounded queue, counts what it drops, and says so where the gap is', async t => {
  const journal = new RequestJournal(10)
  const listener = new JournalStream(deviceSource(journal), { queueLimit: 3 }).open()!
  const recorded = 2000
  let mostQueued = 0
  for (let index = 0; index < recorded; index++) {
    journal.record(request(`/slow/${index}`), 200, 0)
    mostQueued = Math.max(mostQueued, listener.queued)
  }
  t.ok(mostQueued <= 4, `at most the queue limit and one report wait (${mostQueued})`)
  t.ok(listener.dropped > 0, 'the rest was dropped and counted')

  const events = parseEvents(listener.readable)[Symbol.asyncIterator]()
  const read = await readUntil(events, event => event.event === 'dropped')
  const delivered = read.filter(event => event.event === 'request').map(entryOf)
  const dropped = (JSON.parse(read.at(-1)!.data) as { dropped: number }).dropped
  t.equal(delivered.length + dropped, recorded, 'every request is either delivered or counted as dropped')
  t.strictSame(delivered.map(entry => entry.seq), delivered.map((_entry, index) => index + 1), 'the delivered ones in order, from the first')

  journal.record(request('/after'), 200, 0)
  const after = await readUntil(events, event => event.event === 'request')
  t.equal(entryOf(after.at(-1)!).path, '/after', 'the stream goes on once the listener reads again')
  t.equal(listener.dropped, 0)
  listener.readable.destroy()
})

t.test('a drop reported while the listener is still behind waits in the queue for its turn', async t => {
  const journal = new RequestJournal(10)
  const listener = new JournalStream(deviceSource(journal), { queueLimit: 2 }).open()!
  let recorded = 0
  while (listener.dropped < 5) journal.record(request(`/fill/${recorded++}`), 200, 0)
  // Reading a little frees the buffer and one queued event moves into it: the queue has room again.
  const { readable } = listener
  readable.read(readable.readableLength - readable.readableHighWaterMark + 1)
  t.equal(listener.queued, 1)
  journal.record(request('/late'), 200, 0)
  t.equal(listener.queued, 3, 'the report and the request queued behind the event already waiting')
  const events = parseEvents(readable)[Symbol.asyncIterator]()
  const read = await readUntil(events, event => event.data.includes('/late'))
  t.strictSame(read.slice(-3).map(event => event.event), ['request', 'dropped', 'request'])
  t.equal(JSON.parse(read.at(-2)!.data).dropped, 5)
  t.equal(entryOf(read.at(-3)!).path, `/fill/${recorded - 6}`, 'the gap is where the dropped ones were')
  readable.destroy()
})

t.test('more streams than the limit are refused; an idle stream gets heartbeats', async t => {
  const journal = new RequestJournal(10)
  const stream = new JournalStream(deviceSource(journal), { maxListeners: 1, heartbeatMs: 5 })
  const listener = stream.open()!
  t.equal(stream.open(), undefined)
  // The heartbeat's timer does not hold the process open (a socket does, in use): this test holds it.
  const holdOpen = setInterval(() => {}, 1000)
  t.teardown(() => clearInterval(holdOpen))
  const events = parseEvents(listener.readable)[Symbol.asyncIterator]()
  const read = await readUntil(events, event => event.event === ':')
  t.equal(read.at(-1)!.data, 'heartbeat')
  listener.readable.destroy()
})

t.test('closing ends a stream that keeps up and cuts one that is stuck', async t => {
  const journal = new RequestJournal(10)
  const stream = new JournalStream(deviceSource(journal), { queueLimit: 1 })
  const keepingUp = stream.open()!
  const stuck = stream.open()!
  const read: string[] = []
  keepingUp.readable.on('data', chunk => read.push(String(chunk)))
  await once(keepingUp.readable, 'data')
  while (stuck.dropped === 0) journal.record(request('/x'), 200, 0)
  const closed = Promise.all([once(keepingUp.readable, 'end'), once(stuck.readable, 'close')])
  stream.closeAll()
  // Recorded while the ended streams are still open: pushed after their end, it would be a stream error.
  journal.record(request('/after-end'), 200, 0)
  await closed
  t.ok(stuck.readable.destroyed)
  journal.record(request('/after-close'), 200, 0)
  t.notOk(read.join('').includes('/after-'), 'nothing is sent after the end')
})

t.test('GET /__admin/requests/stream needs the admin token; HEAD is bodiless; other methods are 405', async t => {
  const { app } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  for (const headers of [{}, AUTH, { authorization: 'Bearer nope' }]) {
    const refused = await app.inject({ url: '/__admin/requests/stream', headers })
    t.equal(refused.statusCode, 401)
    t.equal(refused.headers['content-type'], 'application/json; charset=utf-8')
  }
  const head = await app.inject({ method: 'HEAD', url: '/__admin/requests/stream', headers: ADMIN })
  t.equal(head.statusCode, 200)
  t.equal(head.headers['content-type'], 'text/event-stream; charset=utf-8')
  t.equal(head.body, '')
  const post = await app.inject({ method: 'POST', url: '/__admin/requests/stream', headers: ADMIN })
  t.equal(post.statusCode, 405)
  t.equal(post.headers.allow, 'GET, HEAD')
})

t.test('over a real socket: requests answered appear in order; the ninth stream is refused; closing ends the streams', async t => {
  const { app } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  const origin = await app.listen({ host: '127.0.0.1', port: 0 })
  const streams = await Promise.all(Array.from({ length: 8 }, () => openStream(origin)))
  t.strictSame(streams.map(response => response.statusCode), Array(8).fill(200))
  t.equal(streams[0]!.headers['content-type'], 'text/event-stream; charset=utf-8')
  t.equal(streams[0]!.headers['cache-control'], 'no-store')
  const ninth = await openStream(origin)
  t.equal(ninth.statusCode, 503)
  t.equal(ninth.headers['retry-after'], '5')
  t.match(JSON.parse(await text(ninth)), { result: { httpCode: 503, errorCode: 'TOO_MANY_STREAMS', errorMessage: '8 streams of the journal are open already; close one first.' } })
  for (const response of streams.slice(1)) response.destroy()

  const events = parseEvents(streams[0]!)[Symbol.asyncIterator]()
  await readUntil(events, event => event.event === 'ready')
  await fetch(`${origin}${LIST}`, { headers: AUTH })
  await fetch(`${origin}/nvr/v1/cameras/nope/counting_lines`, { headers: AUTH })
  await fetch(`${origin}/__admin/requests`, { headers: ADMIN })
  await fetch(`${origin}${LIST}`)
  const read = await readUntil(events, event => event.id === '3')
  t.match(read.map(entryOf), [
    { seq: 1, method: 'GET', path: LIST, params: { id: 'cam-1' }, status: 200, authenticated: true, fault: null },
    { seq: 2, path: '/nvr/v1/cameras/nope/counting_lines', status: 404 },
    { seq: 3, path: LIST, status: 401, authenticated: false }
  ], 'admin calls are not in it, as in the journal')

  await app.close()
  const rest = []
  for (;;) {
    const next = await events.next()
    if (next.done === true) break
    rest.push(next.value)
  }
  t.strictSame(rest, [], 'the stream ended cleanly, with nothing more')
})

t.test('a client that goes away frees its place: the journal pays nothing again and new streams open', async t => {
  const { app, control } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  const origin = await app.listen({ host: '127.0.0.1', port: 0 })
  for (let round = 0; round < 2; round++) {
    const streams = await Promise.all(Array.from({ length: 8 }, () => openStream(origin)))
    t.strictSame(streams.map(response => response.statusCode), Array(8).fill(200), `round ${round}: all 8 places are free`)
    t.type(control.journal.listeners.tell, 'function')
    for (const response of streams) response.destroy()
    // The server learns of each close from its socket: wait for that, not for a time.
    await until(`round ${round}: the journal's listeners let go of the 8 streams`, () => control.journal.listeners.tell === null, 10)
    t.equal(control.journal.listeners.tell, null, `round ${round}: the journal tells no one`)
  }
})
