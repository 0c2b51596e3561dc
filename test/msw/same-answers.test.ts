import fc from 'fast-check'
import t from 'tap'
import { API_PREFIX, isUnder } from '../../src/contract/paths.js'
import type { JournalEntry } from '../../src/control/journal.js'
import type { NvrHandlersOptions } from '../../src/msw/index.js'
import { twins } from './twins.js'
import type { HandleClock } from '../../src/device/handle-clock.js'

/**
 * Waits for `work` while moving each manual clock past every wait it holds (3 ms, the longest latency here) as
 * soon as it holds one, so both twins' clocks move alike whatever the machine's speed.
 */
async function driven<T> (work: Promise<T>, clocks: HandleClock[]): Promise<T> {
  const state = { done: false }
  const result = work.finally(() => { state.done = true })
  for (let turn = 0; !state.done; turn++) {
    if (turn === 5000) throw new Error('a request was never answered while its clock moved')
    for (const clock of clocks) if (clock.pending > 0) await clock.advance(3)
    await new Promise(resolve => setTimeout(resolve, 1))
  }
  return await result
}

// What a journal entry says of a request, its time and duration aside.
const journal = (entries: JournalEntry[]) => entries.map(({ method, path, url, params, authenticated, status, fault }) => ({ method, path, url, params, authenticated, status, fault }))

const TOKEN = 'front-token'
const AUTH = { authorization: `Bearer ${TOKEN}` }
const LIST = '/nvr/v1/cameras/cam-pier-b-gates/counting_lines'
const LINE = `${LIST}/line-b12-boarding-door`

// The contract table's requests: every success and every refusal, with and without a token.
const TABLE: Array<[string, RequestInit]> = [
  [LIST, { headers: AUTH }],
  [LINE, { headers: AUTH }],
  [LIST, { method: 'HEAD', headers: AUTH }],
  [LINE, { method: 'HEAD', headers: AUTH }],
  [`${LIST}/`, { headers: AUTH }],
  [`${LIST}?page=2&x=%zz`, { headers: AUTH }],
  [LIST, {}],
  [LINE, { headers: { authorization: 'Basic abc' } }],
  [LINE, { headers: { authorization: 'Bearer' } }],
  [LINE, { headers: { authorization: 'Bearer a b' } }],
  [LINE, { headers: { authorization: 'Bearer wrong' } }],
  [LINE, { method: 'HEAD' }],
  ['/nvr/v1/cameras/nope/counting_lines', { headers: AUTH }],
  ['/nvr/v1/cameras/nope/counting_lines/line-1', { headers: AUTH }],
  // A line that exists, asked for under another camera: line ids are unique per camera only.
  ['/nvr/v1/cameras/cam-security-exit/counting_lines/line-b12-boarding-door', { headers: AUTH }],
  [`${LIST}/nope`, { headers: AUTH }],
  [`${LIST}/nope`, { method: 'HEAD', headers: AUTH }],
  [`${LIST}//`, { headers: AUTH }],
  ['/nvr/v1/cameras//counting_lines', { headers: AUTH }],
  ['/nvr/v1/cameras/cam%2Dentrance-main/counting_lines', { headers: AUTH }],
  ['/nvr/v1/cam%65ras/cam-security-exit/counting_lines', { headers: AUTH }],
  ['/nvr/v1/cameras/a%2Fb/counting_lines', { headers: AUTH }],
  ['/nvr/v1/cameras/東京/counting_lines', { headers: AUTH }],
  ['/nvr/v1/cameras/%zz/counting_lines', { headers: AUTH }],
  ['/nvr/v1/cameras/%C3/counting_lines', {}],
  ['/nvr/v1/cameras/%C3/counting_lines', { headers: { authorization: 'Bearer a b' } }],
  ['/nvr/v1', { headers: AUTH }],
  ['/nvr/v1/', {}],
  ['/nvr/v1/cameras', { headers: AUTH }],
  ['/nvr/v1/nothing/here', { method: 'DELETE', headers: AUTH }],
  [LIST, { method: 'POST', headers: AUTH, body: '{}' }],
  [LINE, { method: 'PUT', headers: AUTH }],
  [LINE, { method: 'DELETE', headers: AUTH }],
  [LINE, { method: 'PATCH', headers: AUTH }],
  [LINE, { method: 'OPTIONS', headers: AUTH }],
  [LINE, { method: 'POST' }],
  [LINE, { method: 'OPTIONS', headers: { origin: 'http://app.test', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } }],
  [LINE, { method: 'OPTIONS', headers: { origin: 'http://app.test', 'access-control-request-method': 'GET' } }],
  [LINE, { headers: { ...AUTH, origin: 'http://app.test' } }],
  [LINE, { headers: { ...AUTH, origin: 'http://other.test' } }],
  [LINE, { headers: { origin: 'http://other.test' } }],
  [LINE, { method: 'OPTIONS', headers: { origin: 'http://other.test', 'access-control-request-method': 'GET' } }],
  // Prefer asks for a fault only where it is allowed, which the handlers never do and the server does not by default.
  [LIST, { headers: { ...AUTH, prefer: 'code=503, delay=10' } }],
  ['/nvr/v1/cameras/%zz', { method: 'OPTIONS', headers: { origin: 'http://app.test', 'access-control-request-method': 'GET' } }]
]

const SETTINGS: Array<[string, Omit<NvrHandlersOptions, 'baseUrl'>]> = [
  ['any token, any origin', {}],
  ['a fixed token', { tokens: [TOKEN] }],
  ['one allowed origin', { tokens: [TOKEN], corsOrigins: ['http://app.test'] }]
]

for (const [name, options] of SETTINGS) {
  t.test(`the contract table gets the same answers from both (${name})`, async t => {
    const { both, server, msw } = await twins(t, options)
    for (const [path, init] of TABLE) {
      const { server: fromServer, msw: fromMsw } = await both(path, init)
      t.strictSame(fromMsw, fromServer, `${init.method ?? 'GET'} ${path} ${JSON.stringify(init.headers ?? {})}`)
    }
    t.strictSame(journal(msw.requests()), journal(server.requests()), 'the journals agree')
  })
}

t.test('injected faults get the same answers from both', async t => {
  const { both, server, msw } = await twins(t, { tokens: [TOKEN] })
  const faults = [
    { status: 503 }, { status: 429, retryAfter: 7 }, { status: 401 }, { status: 405 }, { status: 500, errorMessage: 'Boom.' }, { status: 409, errorCode: 'LOCKED_BY_SITE', errorMessage: 'Locked.' }, { status: 418 },
    { status: 503, route: 'list' as const }, { status: 503, route: 'retrieve' as const }, { status: 502, camera: 'cam-security-exit' },
    { malformed: true as const }, { drop: true as const }, { delay: 1, status: 504 }, { status: 503, times: 1 },
    { delay: 1 }, { drop: true as const, route: 'retrieve' as const }, { malformed: true as const, camera: 'cam-security-exit', times: 2 }
  ]
  const requests: Array<[string, RequestInit]> = [
    [LIST, { headers: AUTH }], [LINE, { headers: AUTH }], [LINE, { method: 'HEAD', headers: AUTH }], ['/nvr/v1/cameras/cam-security-exit/counting_lines', { headers: AUTH }],
    [`${LIST}/nope`, { headers: AUTH }], [LIST, { method: 'POST', headers: AUTH }], ['/nvr/v1/elsewhere', { headers: AUTH }], [LIST, {}]
  ]
  for (const fault of faults) {
    t.strictSame(msw.injectFault(fault), server.injectFault(fault), `the same fault for ${JSON.stringify(fault)}`)
    for (const [path, init] of requests) {
      const { server: fromServer, msw: fromMsw } = await both(path, init)
      t.strictSame(fromMsw, fromServer, `${JSON.stringify(fault)}: ${init.method ?? 'GET'} ${path}`)
    }
    t.strictSame(msw.faults(), server.faults(), 'the same faults left')
    t.strictSame(journal(msw.requests()), journal(server.requests()), 'the journals agree')
    msw.clearFaults()
    server.clearFaults()
  }
})

t.test('odd requests get the same answers from both', async t => {
  const { both } = await twins(t, { tokens: [TOKEN] })
  const segment = fc.oneof(
    fc.constantFrom('cameras', 'counting_lines', 'cam-pier-b-gates', 'cam-security-exit', 'line-b12-boarding-door', '', '.', '..', '%2F', '%25', '%zz', '%C3',
      '%E6%9D%B1', 'a b', ';', 'x?y', '#f', '%2e', 'COUNTING_LINES', '%63ameras', '+', '東京', '\u{1F6AA}'),
    fc.string({ maxLength: 6 })
  )
  const path = fc.array(segment, { maxLength: 5 }).map(segments => `/nvr/v1/${segments.join('/')}`)
  const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS')
  const authorization = fc.constantFrom(undefined, `Bearer ${TOKEN}`, 'Bearer other', 'bearer  front-token', 'Bearer', 'Token x')
  const origin = fc.constantFrom(undefined, 'http://app.test')
  await fc.assert(fc.asyncProperty(path, method, authorization, origin, fc.boolean(), async (path, method, authorization, origin, preflight) => {
    // The handlers answer below /nvr/v1 only; a dot segment may lead the URL out of it.
    const sent = new URL(path, 'http://nvr.test')
    fc.pre(isUnder(sent.pathname + sent.search, API_PREFIX))
    const headers: Record<string, string> = {}
    if (authorization !== undefined) headers.authorization = authorization
    if (origin !== undefined) headers.origin = origin
    if (preflight) headers['access-control-request-method'] = 'GET'
    const { server: fromServer, msw: fromMsw } = await both(path, { method, headers })
    t.strictSame(fromMsw, fromServer, `${method} ${path} ${JSON.stringify(headers)}`)
    return JSON.stringify(fromMsw) === JSON.stringify(fromServer)
  }), { numRuns: 300, seed: 20261123 })
})

// Fields out of the schema's order, and strings a serializer must escape: the bytes must still be the server's.
const AWKWARD_DATA = {
  cameras: [{ id: 'cam-empty' }],
  counting_lines: [
    { updated: '2024-05-02T09:45:30.125Z', created: '2024-05-01T08:30:00.000Z', max_age: 0, class: 'pérson', coalesce_entries: false, anchor: 'a', counting_line: '</script>', name: 'Tab\there, new\nline, \u0001, \u2028 \u2029, 東京 🚪', camera_id: 'カメラ', id: 'quote "and" back\\slash' },
    { id: 'line/with%2Fslash', camera_id: 'カメラ', name: 'lone \ud800 surrogate', counting_line: 'x', anchor: 'a', coalesce_entries: true, class: 'c', max_age: 1e21, created: '2024-05-01T08:30:00.000Z', updated: '2024-05-01T08:30:00.000Z' }
  ]
}

t.test('awkward data gets the same bytes from both', async t => {
  const { both } = await twins(t, { data: AWKWARD_DATA })
  const camera = `/nvr/v1/cameras/${encodeURIComponent('カメラ')}/counting_lines`
  for (const path of [camera, '/nvr/v1/cameras/cam-empty/counting_lines', ...AWKWARD_DATA.counting_lines.map(line => `${camera}/${encodeURIComponent(line.id)}`)]) {
    const { server: fromServer, msw: fromMsw } = await both(path, { headers: AUTH })
    t.equal((fromServer as { status: number }).status, 200, path)
    t.strictSame(fromMsw, fromServer, path)
  }
})

// Explicit data, so the ids below hold whatever the bundled fixtures become.
const SCOPE_DATA = {
  cameras: [{ id: 'cam-a' }, { id: 'cam-b' }, { id: 'cam-c' }],
  counting_lines: [
    { id: 'line-a', camera_id: 'cam-a', name: 'A', counting_line: 'LINESTRING(0 0, 10 10)', anchor: 'POINT(5 0)', coalesce_entries: true, class: 'person', max_age: 15, created: '2024-05-01T08:30:00.000Z', updated: '2024-05-01T08:30:00.000Z' },
    { id: 'line-b', camera_id: 'cam-b', name: 'B', counting_line: 'LINESTRING(0 0, 10 10)', anchor: 'POINT(5 0)', coalesce_entries: true, class: 'person', max_age: 30, created: '2024-05-01T08:30:00.000Z', updated: '2024-05-01T08:30:00.000Z' }
  ]
}
const SCOPED = 'scoped-front'

for (const [name, tokens] of [['a fixed token', [TOKEN]], ['any token', []]] as const) {
  t.test(`scoped tokens get the same answers from both, 403 outside their cameras (${name})`, async t => {
    const { both, server, msw } = await twins(t, { data: SCOPE_DATA, tokens: [...tokens], scopedTokens: [{ token: SCOPED, cameras: ['cam-a'] }, { token: SCOPED, cameras: ['cam-c'] }] })
    const scoped = { authorization: `Bearer ${SCOPED}` }
    const requests: Array<[string, RequestInit]> = [
      ['/nvr/v1/cameras/cam-a/counting_lines', { headers: scoped }],
      ['/nvr/v1/cameras/cam-a/counting_lines/line-a', { method: 'HEAD', headers: scoped }],
      ['/nvr/v1/cameras/cam-a/counting_lines/nope', { headers: scoped }],
      ['/nvr/v1/cameras/cam-c/counting_lines', { headers: scoped }],
      ['/nvr/v1/cameras/cam-b/counting_lines', { headers: scoped }],
      ['/nvr/v1/cameras/cam-b/counting_lines', { method: 'HEAD', headers: scoped }],
      ['/nvr/v1/cameras/cam-b/counting_lines/line-b', { headers: scoped }],
      ['/nvr/v1/cameras/cam-b/counting_lines/line-b', { method: 'HEAD', headers: scoped }],
      ['/nvr/v1/cameras/unknown/counting_lines', { headers: scoped }],
      ['/nvr/v1/cameras/unknown/counting_lines/line-a', { method: 'HEAD', headers: scoped }],
      ['/nvr/v1/cameras/a%2Fb/counting_lines', { headers: scoped }],
      ['/nvr/v1/cameras/cam-b/counting_lines', { method: 'POST', headers: scoped }],
      ['/nvr/v1/cameras', { headers: scoped }],
      ['/nvr/v1/cameras/cam-b/counting_lines', { headers: AUTH }],
      ['/nvr/v1/cameras/cam-b/counting_lines', { headers: { authorization: 'Bearer not-scoped' } }]
    ]
    for (const [path, init] of requests) {
      const { server: fromServer, msw: fromMsw } = await both(path, init)
      t.strictSame(fromMsw, fromServer, `${init.method ?? 'GET'} ${path} ${JSON.stringify(init.headers)}`)
    }
    t.equal(((await both('/nvr/v1/cameras/cam-b/counting_lines', { headers: scoped })).msw as { status: number }).status, 403)

    // Replaced at run time, on both.
    t.strictSame(msw.setScopedTokens([{ token: SCOPED, cameras: ['cam-b'] }]), server.setScopedTokens([{ token: SCOPED, cameras: ['cam-b'] }]))
    for (const path of ['/nvr/v1/cameras/cam-a/counting_lines', '/nvr/v1/cameras/cam-b/counting_lines/line-b']) {
      const { server: fromServer, msw: fromMsw } = await both(path, { headers: scoped })
      t.strictSame(fromMsw, fromServer, `after setScopedTokens: ${path}`)
    }
    t.strictSame(journal(msw.requests()), journal(server.requests()), 'the journals agree')
  })
}

t.test('the rate limit gets the same answers from both, per token, on a clock the test moves', async t => {
  const { both, server, msw } = await twins(t, { data: SCOPE_DATA, tokens: [TOKEN, 'second'], rateLimit: 2, clock: 'manual' })
  const list = '/nvr/v1/cameras/cam-a/counting_lines'
  const second = { authorization: 'Bearer second' }
  const requests: Array<[string, RequestInit]> = [
    [list, { headers: AUTH }], [list, { method: 'HEAD', headers: AUTH }], [list, { headers: AUTH }], [list, { method: 'HEAD', headers: AUTH }],
    ['/nvr/v1/nothing', { headers: AUTH }], [list, { headers: second }], [list, {}], [list, { headers: { authorization: 'Bearer wrong' } }],
    [list, { method: 'OPTIONS', headers: { origin: 'http://app.test', 'access-control-request-method': 'GET' } }],
    [list, { headers: second }], [list, { headers: second }]
  ]
  for (const [path, init] of requests) {
    const { server: fromServer, msw: fromMsw } = await both(path, init)
    t.strictSame(fromMsw, fromServer, `${init.method ?? 'GET'} ${path} ${JSON.stringify(init.headers ?? {})}`)
  }
  await server.clock.advance(500)
  await msw.clock.advance(500)
  const { server: fromServer, msw: fromMsw } = await both(list, { headers: AUTH })
  t.strictSame(fromMsw, fromServer, 'one request back after 1/2 s')
  t.equal((fromMsw as { status: number }).status, 200)
  t.strictSame(msw.setRateLimit(null), server.setRateLimit(null))
  t.strictSame(journal(msw.requests()), journal(server.requests()), 'the journals agree')
  t.strictSame(journal(msw.requests()).map(entry => entry.status), [200, 200, 429, 429, 429, 200, 401, 401, 204, 200, 429, 200])
})

t.test('with latency on, every fault kind and every refusal get the same answers and journals from both', async t => {
  const { both, server, msw } = await twins(t, { tokens: [TOKEN], latency: { min: 1, max: 3 }, seed: 7, rateLimit: 4, clock: 'manual' })
  const requests: Array<[string, RequestInit]> = [
    [LIST, { headers: AUTH }], [LINE, { method: 'HEAD', headers: AUTH }], [LIST, {}], ['/nvr/v1/cameras/%zz/counting_lines', { headers: AUTH }],
    ['/nvr/v1/cameras/%zz/counting_lines', {}], [`${LIST}/nope`, { headers: AUTH }], [LIST, { method: 'DELETE', headers: AUTH }],
    [LIST, { headers: AUTH }], ['/nvr/v1/elsewhere', { headers: AUTH }]
  ]
  const kinds = [{}, { status: 503 }, { drop: true as const }, { malformed: true as const }, { delay: 2 }, { delay: { min: 1, max: 2 }, status: 500 }]
  for (const fault of kinds) {
    if ('delay' in fault || 'status' in fault || 'drop' in fault || 'malformed' in fault) {
      t.strictSame(msw.injectFault(fault), server.injectFault(fault), `the same fault for ${JSON.stringify(fault)}`)
    }
    for (const [path, init] of requests) {
      const { server: fromServer, msw: fromMsw } = await driven(both(path, init), [server.clock, msw.clock])
      t.strictSame(fromMsw, fromServer, `${JSON.stringify(fault)}: ${init.method ?? 'GET'} ${path} ${JSON.stringify(init.headers ?? {})}`)
    }
    await server.clock.advance(1000)
    await msw.clock.advance(1000)
    msw.clearFaults()
    server.clearFaults()
  }
  t.strictSame(journal(msw.requests()), journal(server.requests()), 'the journals agree')
  const statuses = new Set(journal(server.requests()).map(entry => entry.status))
  for (const status of [200, 400, 401, 404, 405, 429, 500, 503, null]) t.ok(statuses.has(status), `the table reaches ${String(status)}`)
})
