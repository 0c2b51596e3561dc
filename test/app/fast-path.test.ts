import type { IncomingMessage, ServerResponse } from 'node:http'
import { RealClock } from '../../src/util/real-clock.js'
import t, { type Test } from 'tap'
import { TokenPolicy } from '../../src/wire/token-policy.js'
import { CorsPolicy } from '../../src/wire/cors.js'
import { DataStore } from '../../src/data/data-store.js'
import { FastPath, HEADER_LISTS, MATCHED_URLS, matchRead } from '../../src/app/fast-path.js'
import { BUNDLED_FIXTURES, loadFixtures } from '../../src/data/fixtures.js'
import { datasetFromData } from '../../src/data/dataset.js'
import { startMockNvr, type MockNvr, type MockNvrOptions } from '../../src/index.js'
import { Device } from '../../src/device/device.js'
import { AUTH, line, SAMPLE_DATA, TOKEN } from '../helpers/app.js'
import { captureLogs } from '../helpers/log-capture.js'
import { exchange, parseAnswers } from '../helpers/raw-http.js'

/** Counts the requests the fast path answered, across every server of the test. */
function countFastAnswers (t: Test): () => number {
  const calls = t.capture(FastPath.prototype, 'answer', FastPath.prototype.answer)
  return () => calls().filter(call => 'returned' in call && call.returned).length
}

async function serve (t: Test, options: MockNvrOptions) {
  const nvr = await startMockNvr({ tokens: [TOKEN], ...options })
  t.teardown(() => nvr.close())
  return nvr
}

// Date, Connection and Keep-Alive are Node's, the same on both paths but for the clock.
const NODE_HEADERS = new Set(['date', 'connection', 'keep-alive'])
async function answerOf (port: number, request: string) {
  const [answer] = parseAnswers((await exchange(port, request)).received, request.startsWith('HEAD'))
  const headers = Object.entries(answer?.headers ?? {}).filter(([name]) => !NODE_HEADERS.has(name))
  return { status: answer?.status, headers, body: answer?.body }
}

const request = (method: string, path: string, extra = '') =>
  `${method} ${path} HTTP/1.1\r\nHost: mock\r\nAuthorization: ${AUTH.authorization}\r\n${extra}\r\n`

t.test('the fast path answers the reads that succeed with the very bytes and headers of the Fastify path', async t => {
  const fastAnswers = countFastAnswers(t)
  for (const corsOrigins of [[], ['http://app.example']]) {
    const data = await loadFixtures(BUNDLED_FIXTURES)
    const fast = await serve(t, { data: { counting_lines: data.lines, cameras: data.cameraIds.map(id => ({ id })) }, corsOrigins })
    // Prefer handling on sends every request through Fastify's cycle; without a Prefer header it changes nothing.
    const slow = await serve(t, { data: { counting_lines: data.lines, cameras: data.cameraIds.map(id => ({ id })) }, corsOrigins, allowPrefer: true })
    const paths = data.cameraIds.flatMap(id => [
      `/nvr/v1/cameras/${id}/counting_lines`,
      `/nvr/v1/cameras/${id}/counting_lines/?page=2`,
      ...data.lines.filter(line => line.camera_id === id).map(line => `/nvr/v1/cameras/${id}/counting_lines/${line.id}`)
    ])
    for (const path of paths) {
      for (const method of ['GET', 'HEAD']) {
        for (const origin of ['', 'Origin: http://app.example\r\n', 'Origin: http://elsewhere.example\r\n']) {
          const before = fastAnswers()
          const served = await answerOf(fast.port, request(method, path, origin))
          t.equal(fastAnswers(), before + 1, `${method} ${path} took the fast path`)
          t.strictSame(served, await answerOf(slow.port, request(method, path, origin)), `${method} ${path} ${origin.trim()} (${corsOrigins.join() || 'any origin'})`)
          t.equal(served.status, 200)
        }
      }
    }
  }
})

t.test('every other request goes on to Fastify, which answers it as the contract says', async t => {
  const fastAnswers = countFastAnswers(t)
  const nvr = await serve(t, { data: SAMPLE_DATA, adminToken: 'admin-token' })
  const cases: Array<[string, number]> = [
    [request('POST', '/nvr/v1/cameras/cam-1/counting_lines'), 405],
    [request('GET', '/nvr/v1/cameras/cam-1/counting_lines', 'Content-Length: 2\r\n') + '{}', 200],
    [request('GET', '/nvr/v1/cameras/cam-1/counting_lines', 'Transfer-Encoding: chunked\r\n') + '0\r\n\r\n', 200],
    [`GET /nvr/v1/cameras/cam-1/counting_lines HTTP/1.1\r\nAuthorization: ${AUTH.authorization}\r\n\r\n`, 400],
    [request('GET', '/nvr/v1/cameras/cam%2D1/counting_lines'), 200],
    [request('GET', '/nvr/v1/cameras/cam-1/counting_lines/line%2D2'), 200],
    [request('GET', '/nvr/v1/cameras/../counting_lines'), 404],
    [request('GET', '/nvr/v1/cameras/cam-1/counting_lines/.'), 404],
    [request('GET', '/nvr/v1/cameras/cam-1/counting_lines//'), 404],
    [request('GET', '/nvr/v1/cameras/cam-1/counting_lines/line-1/more'), 404],
    [request('GET', '/nvr/v1/cameras/cam-1/lines'), 404],
    [request('GET', '/nvr/v1/cameras/nope/counting_lines'), 404],
    [request('GET', '/nvr/v1/cameras/cam-1/counting_lines/nope'), 404],
    [request('GET', '/nvr/v1/cameras/cam-2/counting_lines/line-1'), 404],
    ['GET /nvr/v1/cameras/cam-1/counting_lines HTTP/1.1\r\nHost: mock\r\nAuthorization: Bearer admin-token\r\n\r\n', 401],
    ['GET /nvr/v1/cameras/cam-1/counting_lines HTTP/1.1\r\nHost: mock\r\n\r\n', 401],
    [request('GET', '/healthz'), 200]
  ]
  for (const [raw, status] of cases) {
    t.equal((await answerOf(nvr.port, raw)).status, status, raw.slice(0, raw.indexOf('\r')))
  }
  t.equal(fastAnswers(), 0, 'none of them took the fast path')

  nvr.injectFault({ status: 503, camera: 'nobody' })
  t.equal((await answerOf(nvr.port, request('GET', '/nvr/v1/cameras/cam-1/counting_lines'))).status, 200)
  t.equal(fastAnswers(), 0, 'not while a fault is on, even one that does not apply')
  nvr.clearFaults()
  t.equal((await answerOf(nvr.port, request('GET', '/nvr/v1/cameras/cam-1/counting_lines'))).status, 200)
  t.equal(fastAnswers(), 1, 'and again once it is cleared')
})

t.test('a fast answer is in the journal and the log exactly as a Fastify answer is', async t => {
  const logs = captureLogs('info')
  const nvr = await serve(t, { data: SAMPLE_DATA, logger: logs.logger })
  const path = '/nvr/v1/cameras/cam-1/counting_lines/line-2?x=1'
  const fastLine = logs.next(record => record.msg === 'request completed')
  await answerOf(nvr.port, request('GET', path))
  const fast = await fastLine
  nvr.injectFault({ delay: 0, camera: 'nobody' })
  const slowLine = logs.next(record => record.msg === 'request completed')
  await answerOf(nvr.port, request('GET', path))
  const slow = await slowLine

  const shape = (record: Record<string, unknown>) => ({ ...record, time: 0, responseTime: typeof record.responseTime })
  t.strictSame(shape(fast), { ...shape(slow), reqId: 'req-1' }, 'the same line, with its own request id')
  t.strictSame(Object.keys(fast), Object.keys(slow), 'in the same order')
  t.match(fast, { level: 30, method: 'GET', url: path, statusCode: 200, responseTime: Number })
  for (const { responseTime } of [fast, slow]) t.equal(Math.round(Number(responseTime) * 100) / 100, responseTime, 'to 0.01 ms')
  t.equal(slow.reqId, 'req-2', 'both paths count requests alike')
  const [first, second] = nvr.requests()
  t.strictSame({ ...first, time: 0, durationMs: 0 }, { ...second, time: 0, durationMs: 0 })
  t.match(first, { method: 'GET', path: '/nvr/v1/cameras/cam-1/counting_lines/line-2', params: { id: 'cam-1', line_id: 'line-2' }, authenticated: true, status: 200, fault: null })
})

t.test('the fast path leaves every request to Fastify once the server is closing, and logs nothing it need not', async t => {
  const store = new DataStore(datasetFromData(SAMPLE_DATA))
  const device = new Device({ name: 'nvr', store, tokens: new TokenPolicy([TOKEN]), cors: new CorsPolicy(), clock: new RealClock(), settings: { journalSize: 10 } })
  const journal = device.journal
  const fastPath = new FastPath({ nextRequestId: () => 'req-x' })
  const written: unknown[] = []
  const response = { writeHead: (...args: unknown[]) => written.push(args), end: (body: unknown) => written.push(body) } as unknown as ServerResponse
  const incoming = { method: 'GET', url: '/nvr/v1/cameras/cam-1/counting_lines', headers: { host: 'mock', ...AUTH }, socket: {} } as unknown as IncomingMessage
  t.equal(fastPath.answer(device, incoming, response), true, 'answered without a logger')
  t.equal(journal.total, 1)
  fastPath.stop()
  t.equal(fastPath.answer(device, incoming, response), false)
  t.equal(written.length, 2, 'nothing written once stopped')
})

t.test('a read is matched as the router would match it, or left to the router', async t => {
  t.strictSame(matchRead('/nvr/v1/cameras/cam-1/counting_lines'), { id: 'cam-1' })
  t.strictSame(matchRead('/nvr/v1/cameras/cam-1/counting_lines/'), { id: 'cam-1' })
  t.strictSame(matchRead('/nvr/v1/cameras/cam-1/counting_lines?a=/b'), { id: 'cam-1' })
  t.strictSame(matchRead('/nvr/v1/cameras/C_1.x~(a)!$&\'*+,=:@/counting_lines/L-1'), { id: 'C_1.x~(a)!$&\'*+,=:@', line_id: 'L-1' })
  for (const url of [
    '/nvr/v1/cameras', '/nvr/v1/cameras/', '/nvr/v1/cameras/cam-1', '/nvr/v1/cameras/cam-1/', '/nvr/v1/cameras//counting_lines',
    '/nvr/v1/cameras/cam%201/counting_lines', '/nvr/v1/cameras/cam-1/counting_lines/a;b', '/nvr/v1/cameras/cam-1#x/counting_lines',
    '/nvr/v1/cameras/ü/counting_lines', '/nvr/v1/cameras/../counting_lines', '/nvr/v1/cameras/cam-1/counting_lines/..',
    '/nvr/v1/cameras/cam-1/counting_lines/a/b', '/nvr/v1/cameras/cam-1/COUNTING_LINES', '/nvr/v2/cameras/cam-1/counting_lines'
  ]) {
    t.equal(matchRead(url), undefined, url)
  }
})

// Asked of two servers at once, on the manual clock: a slow device's answer waits on its clock, which is moved once both wait.
async function answersOfBoth (servers: readonly MockNvr[], raw: string, waitMs: number) {
  const pending = servers.map(async each => await answerOf(each.port, raw))
  if (waitMs > 0) {
    for (const each of servers) while (each.clock.pending < 1) await new Promise(resolve => setImmediate(resolve))
    for (const each of servers) await each.clock.advance(waitMs)
  }
  return await Promise.all(pending)
}

t.test('each health state that answers gets the same answers on the fast path as through Fastify', async t => {
  const fastAnswers = countFastAnswers(t)
  const fast = await serve(t, { data: SAMPLE_DATA, clock: 'manual' })
  // Prefer handling on sends every request through Fastify's cycle.
  const slow = await serve(t, { data: SAMPLE_DATA, clock: 'manual', allowPrefer: true })
  const states = [
    { spec: { state: 'online' as const }, status: 200, waitMs: 0, fastPath: true },
    { spec: { state: 'slow' as const, latency: 40 }, status: 200, waitMs: 40, fastPath: true },
    { spec: { state: 'rebooting' as const, down: 0, starting: 5000 }, status: 503, waitMs: 0, fastPath: false }
  ]
  for (const { spec, status, waitMs, fastPath } of states) {
    await fast.setHealth(spec)
    await slow.setHealth(spec)
    for (const path of ['/nvr/v1/cameras/cam-1/counting_lines', '/nvr/v1/cameras/cam-1/counting_lines/line-2']) {
      for (const method of ['GET', 'HEAD']) {
        const before = fastAnswers()
        const [fromFast, fromFastify] = await answersOfBoth([fast, slow], request(method, path), waitMs)
        t.strictSame(fromFast, fromFastify, `${spec.state}: ${method} ${path}`)
        t.equal(fromFast?.status, status)
        t.equal(fastAnswers(), before + (fastPath ? 1 : 0), `${spec.state}: ${fastPath ? 'the fast path answers' : 'the port answers first'}`)
      }
    }
  }
})

t.test('the fast path remembers a bounded number of URLs: unique URLs cannot grow it, and each is answered as before', async t => {
  const fastAnswers = countFastAnswers(t)
  const nvr = await serve(t, { data: SAMPLE_DATA })
  const camera = (nvr.data().cameras as Array<{ id: string }>)[0]?.id as string
  const path = (index: number) => `/nvr/v1/cameras/${camera}/counting_lines?page=${index}`
  const first = await (await fetch(`${nvr.url}${path(0)}`, { headers: AUTH })).text()
  for (let index = 1; index <= MATCHED_URLS + 2; index++) {
    const answer = await fetch(`${nvr.url}${path(index)}`, { headers: AUTH })
    t.equal(await answer.text(), first, `${path(index)}`)
  }
  t.equal(fastAnswers(), MATCHED_URLS + 3, 'every one on the fast path')
})

t.test('the fast path keeps header lists for a bounded number of answer lengths, and each answer has its own length', async t => {
  const fastAnswers = countFastAnswers(t)
  const count = HEADER_LISTS + 2
  // Each line's name one character longer than the last: every answer has a length of its own.
  const lines = Array.from({ length: count }, (_, index) => line({ id: `line-${index}`, name: 'n'.repeat(index + 1) }))
  const nvr = await serve(t, { data: { cameras: [{ id: 'cam-1' }], counting_lines: lines } })
  const lengths = new Set<string>()
  const wrong: string[] = []
  for (let index = 0; index < count; index++) {
    const answer = await fetch(`${nvr.url}/nvr/v1/cameras/cam-1/counting_lines/line-${index}`, { headers: AUTH })
    const body = Buffer.from(await answer.arrayBuffer())
    const name = (JSON.parse(body.toString()) as { content: { name: string } }).content.name
    if (answer.headers.get('content-length') !== String(body.length) || name.length !== index + 1) wrong.push(`line-${index}`)
    lengths.add(String(body.length))
  }
  t.strictSame(wrong, [], 'each answer whole, with its own length')
  t.equal(lengths.size, count, 'as many lengths as answers')
  t.equal(fastAnswers(), count, 'every one on the fast path')
})
