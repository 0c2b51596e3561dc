import t from 'tap'
import { buildApp } from '../src/app.js'
import { TokenPolicy } from '../src/auth.js'
import { CorsPolicy } from '../src/cors.js'
import { DataStore } from '../src/data-store.js'
import { datasetFromData } from '../src/fixtures.js'
import { OptionsError, startMockNvr } from '../src/index.js'
import { AUTH, build, line, SAMPLE_DATA, TOKEN } from './helper.js'
import { ADMIN, ADMIN_TOKEN, buildControlled } from './control-helper.js'
import { captureLogs } from './log-capture.js'

const LIST = '/nvr/v1/cameras/cam-1/counting_lines'
const ok = (content: unknown, status = 200) => ({ result: { success: true, httpCode: status }, content })
const refusal = (status: number, message: string) => ({ result: { success: false, httpCode: status, message }, content: null })
const json = (body: unknown) => ({ headers: { ...ADMIN, 'content-type': 'application/json' }, payload: JSON.stringify(body) })

t.test('the admin API is off unless an admin token is set: /__admin/ is a 404 in the envelope', async t => {
  const app = await build(t)
  for (const headers of [{}, AUTH, ADMIN]) {
    const response = await app.inject({ url: '/__admin/faults', headers })
    t.equal(response.statusCode, 404)
    t.strictSame(response.json(), refusal(404, 'Nothing is served at this path.'))
  }
})

t.test('every admin call needs the admin token; a missing or wrong one is a 401 with WWW-Authenticate', async t => {
  const { app } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  const cases: Array<[Record<string, string>, string, string]> = [
    [{}, 'Bearer realm="mock-nvr admin"', 'The admin API needs an Authorization header with the admin token as a bearer token.'],
    [{ authorization: 'Basic YWRtaW46YWRtaW4=' }, 'Bearer realm="mock-nvr admin"', 'The admin API needs an Authorization header with the admin token as a bearer token.'],
    [{ authorization: 'Bearer a b' }, 'Bearer realm="mock-nvr admin", error="invalid_request"', 'The Authorization header must be "Bearer" followed by one token.'],
    [{ authorization: 'Bearer wrong-admin' }, 'Bearer realm="mock-nvr admin", error="invalid_token"', 'The bearer token is not the admin token.'],
    [AUTH, 'Bearer realm="mock-nvr admin", error="invalid_token"', 'The bearer token is not the admin token.']
  ]
  for (const [headers, challenge, message] of cases) {
    for (const [method, url] of [['GET', '/__admin/faults'], ['POST', '/__admin/reset'], ['GET', '/__admin/no-such-thing']] as const) {
      const response = await app.inject({ method, url, headers })
      t.equal(response.statusCode, 401, `${method} ${url} ${JSON.stringify(headers)}`)
      t.equal(response.headers['www-authenticate'], challenge)
      t.strictSame(response.json(), refusal(401, message))
    }
  }
  const unknown = await app.inject({ url: '/__admin/no-such-thing', headers: ADMIN })
  t.strictSame(unknown.json(), refusal(404, 'Nothing is served at this path.'))
})

t.test('the admin token does not open the device API, with or without configured device tokens', async t => {
  const { app } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  const refused = await app.inject({ url: LIST, headers: ADMIN })
  t.equal(refused.statusCode, 401)
  t.equal(refused.headers['www-authenticate'], 'Bearer realm="mock-nvr", error="invalid_token"')

  const nvr = await startMockNvr({ data: SAMPLE_DATA, adminToken: ADMIN_TOKEN })
  t.teardown(() => nvr.close())
  t.equal((await nvr.app.inject({ url: LIST, headers: ADMIN })).statusCode, 401, 'refused even though any other token is accepted')
  t.equal((await nvr.app.inject({ url: LIST, headers: { authorization: 'Bearer anything-else' } })).statusCode, 200)
  t.equal((await nvr.app.inject({ url: '/__admin/faults', headers: { authorization: 'Bearer anything-else' } })).statusCode, 401)
})

t.test('an admin token that would open the device API is refused at start', async t => {
  await t.rejects(startMockNvr({ tokens: ['shared'], adminToken: 'shared' }), OptionsError)
  const store = new DataStore(datasetFromData(SAMPLE_DATA))
  await t.rejects(buildApp({ store, tokens: new TokenPolicy([]), cors: new CorsPolicy(), maxHeaderSize: 65536, adminToken: ADMIN_TOKEN }), {
    name: 'OptionsError', message: 'option adminToken must differ from every token: the admin token must never open the device API'
  })
  await t.rejects(startMockNvr({ adminToken: 'has space' }), { name: 'OptionsError', message: /^option adminToken is invalid/ })
})

t.test('data over HTTP: GET shows it, PUT replaces it for the very next request, DELETE returns to the start-up data', async t => {
  const { app } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  const shown = await app.inject({ url: '/__admin/data', headers: ADMIN })
  t.strictSame(shown.json(), ok({ cameras: [{ id: 'cam-1' }, { id: 'cam-empty' }, { id: 'cam-2' }], counting_lines: SAMPLE_DATA.counting_lines }))
  t.equal((await app.inject({ method: 'HEAD', url: '/__admin/data', headers: ADMIN })).statusCode, 200)

  const replaced = await app.inject({ method: 'PUT', url: '/__admin/data', ...json({ counting_lines: [line({ name: 'Replaced' })] }) })
  t.strictSame(replaced.json(), ok({ cameras: 1, countingLines: 1 }))
  t.equal((await app.inject({ url: LIST, headers: AUTH })).json().content[0].name, 'Replaced')
  t.equal((await app.inject({ url: '/nvr/v1/cameras/cam-2/counting_lines', headers: AUTH })).statusCode, 404)

  const reset = await app.inject({ method: 'DELETE', url: '/__admin/data', headers: ADMIN })
  t.strictSame(reset.json(), ok({ cameras: 3, countingLines: 3 }))
  t.equal((await app.inject({ url: LIST, headers: AUTH })).json().content[0].name, 'Door')
})

t.test('a refused data replacement is a 400 naming each JSON path and problem, and changes nothing', async t => {
  const { app } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  const put = (body: unknown) => app.inject({ method: 'PUT', url: '/__admin/data', ...json(body) })
  const cases: Array<[unknown, string]> = [
    [{ counting_lines: [line({ created: '2024-02-30T10:00:00.000Z' })] }, '/counting_lines/0/created: "2024-02-30T10:00:00.000Z" is not a real date and time'],
    [{ counting_lines: [line(), line()] }, '/counting_lines/1/id: line "line-1" of camera "cam-1" is already defined at request body /counting_lines/0'],
    [{ counting_lines: [{ ...line(), max_age: 'long' }], colour: 1 }, '/colour: is not a known field; /counting_lines/0/max_age: must be an integer'],
    [[], 'must be an object']
  ]
  for (const [body, problems] of cases) {
    const response = await put(body)
    t.equal(response.statusCode, 400)
    t.strictSame(response.json(), refusal(400, `The request body is invalid: ${problems}.`))
  }
  t.equal((await app.inject({ url: LIST, headers: AUTH })).json().content[0].name, 'Door', 'the old data is still served')
})

t.test('faults over HTTP: POST injects one, GET lists them, DELETE clears one or all', async t => {
  const { app } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  const created = await app.inject({ method: 'POST', url: '/__admin/faults', ...json({ status: 503, times: 1, route: 'list' }) })
  t.equal(created.statusCode, 201)
  t.strictSame(created.json(), ok({ id: 'fault-1', status: 503, times: 1, route: 'list', remaining: 1 }, 201))
  await app.inject({ method: 'POST', url: '/__admin/faults', ...json({ delay: 10, camera: 'cam-2' }) })
  t.strictSame((await app.inject({ url: '/__admin/faults', headers: ADMIN })).json().content.map((fault: { id: string }) => fault.id), ['fault-1', 'fault-2'])

  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 503)
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 200, 'back to normal after N requests')

  t.strictSame((await app.inject({ method: 'DELETE', url: '/__admin/faults/fault-2', headers: ADMIN })).json(), ok(null))
  t.strictSame((await app.inject({ method: 'DELETE', url: '/__admin/faults/fault-2', headers: ADMIN })).json(), refusal(404, 'No fault has the id "fault-2".'))
  await app.inject({ method: 'POST', url: '/__admin/faults', ...json({ status: 500 }) })
  t.strictSame((await app.inject({ method: 'DELETE', url: '/__admin/faults', headers: ADMIN })).json(), ok(null))
  t.strictSame((await app.inject({ url: '/__admin/faults', headers: ADMIN })).json(), ok([]))
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 200)
})

t.test('a bad fault body is a 400 in the envelope saying what is wrong and where', async t => {
  const { app, control } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  const post = (payload: string, contentType = 'application/json') =>
    app.inject({ method: 'POST', url: '/__admin/faults', headers: { ...ADMIN, 'content-type': contentType }, payload })
  const cases: Array<[string, number, string]> = [
    ['{"status": 700, "times": "2"}', 400, 'The request body is invalid: /status: must be at most 599; /times: must be an integer.'],
    ['{"status": 503, "drop": true}', 400, 'The request body is invalid: /drop: cannot be combined with status: a request gets one answer.'],
    ['{"delay": {"min": 900, "max": 100}}', 400, 'The request body is invalid: /delay: the range must go from low to high, not from 900 to 100.'],
    ['{"route": "list"}', 400, 'The request body is invalid: needs status, drop, malformed or delay: what should happen to the requests.'],
    ['{"status": 5', 400, 'The request body is not valid JSON.'],
    ['', 400, 'The request body is empty, but its Content-Type says JSON.']
  ]
  for (const [payload, status, message] of cases) {
    const response = await post(payload)
    t.equal(response.statusCode, status, payload)
    t.strictSame(response.json(), refusal(status, message))
  }
  const plainText = await post('status=503', 'text/plain')
  t.equal(plainText.statusCode, 415)
  t.strictSame(plainText.json(), refusal(415, 'The request body must be JSON, sent with Content-Type: application/json.'))
  t.strictSame(control.listFaults(), [], 'nothing was injected')
})

t.test('the journal over HTTP: GET lists the requests with total and capacity, DELETE clears it', async t => {
  const { app } = await buildControlled(t, { adminToken: ADMIN_TOKEN, journalSize: 2 })
  for (const camera of ['cam-1', 'cam-2', 'cam-empty']) await app.inject({ url: `/nvr/v1/cameras/${camera}/counting_lines`, headers: AUTH })
  const listed = (await app.inject({ url: '/__admin/requests', headers: ADMIN })).json()
  t.match(listed, ok({ total: 3, capacity: 2, requests: [{ params: { id: 'cam-2' }, status: 200 }, { params: { id: 'cam-empty' }, status: 200 }] }))
  t.equal(listed.content.requests.length, 2)
  t.strictSame((await app.inject({ method: 'DELETE', url: '/__admin/requests', headers: ADMIN })).json(), ok(null))
  t.strictSame((await app.inject({ url: '/__admin/requests', headers: ADMIN })).json(), ok({ requests: [], total: 0, capacity: 2 }))
})

t.test('POST /__admin/reset brings back the start-up data, with no faults and an empty journal', async t => {
  const { app, control } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  await app.inject({ method: 'PUT', url: '/__admin/data', ...json({ cameras: [{ id: 'cam-x' }] }) })
  await app.inject({ method: 'POST', url: '/__admin/faults', ...json({ status: 500 }) })
  await app.inject({ url: LIST, headers: AUTH })
  t.strictSame((await app.inject({ method: 'POST', url: '/__admin/reset', headers: ADMIN })).json(), ok(null))
  t.strictSame(control.listFaults(), [])
  t.strictSame(control.requests(), [])
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 200)
})

t.test('another method on an admin path is a 405 with Allow', async t => {
  const { app } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  const cases: Array<[string, string, string]> = [
    ['GET', '/__admin/reset', 'POST'],
    ['POST', '/__admin/data', 'GET, HEAD, PUT, DELETE'],
    ['PATCH', '/__admin/faults', 'GET, HEAD, POST, DELETE'],
    ['GET', '/__admin/faults/fault-1', 'DELETE'],
    ['PUT', '/__admin/requests', 'GET, HEAD, DELETE']
  ]
  for (const [method, url, allow] of cases) {
    const response = await app.inject({ method: method as 'GET', url, headers: ADMIN })
    t.equal(response.statusCode, 405, `${method} ${url}`)
    t.equal(response.headers.allow, allow)
  }
})

t.test('admin calls are logged by what they did, never with the admin token', async t => {
  const logs = captureLogs()
  const { app } = await buildControlled(t, { adminToken: ADMIN_TOKEN, logger: logs.logger, tokens: [TOKEN] })
  await app.inject({ method: 'POST', url: '/__admin/faults', ...json({ status: 503, times: 1 }) })
  await app.inject({ method: 'DELETE', url: '/__admin/faults/fault-1', headers: ADMIN })
  await app.inject({ method: 'DELETE', url: '/__admin/faults', headers: ADMIN })
  await app.inject({ method: 'PUT', url: '/__admin/data', ...json({ cameras: [{ id: 'cam-x' }] }) })
  await app.inject({ method: 'DELETE', url: '/__admin/data', headers: ADMIN })
  await app.inject({ method: 'POST', url: '/__admin/reset', headers: ADMIN })
  await app.inject({ url: '/__admin/faults', headers: { authorization: 'Bearer refused-admin-secret' } })
  const messages = logs.records.map(record => record.msg)
  for (const message of ['admin: fault-1 injected', 'admin: fault-1 cleared', 'admin: every fault cleared', 'admin: data replaced',
    'admin: data reset to the start-up data', 'admin: reset to the start-up data, no faults, an empty journal']) {
    t.ok(messages.includes(message), message)
  }
  t.equal(logs.records.filter(record => record.msg === 'request completed').length, 7)
  t.notMatch(JSON.stringify(logs.records), new RegExp(`${ADMIN_TOKEN}|refused-admin-secret|authorization`, 'i'))
})

t.test('the admin routes are not in the OpenAPI document', async t => {
  const { app } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  const document = (await app.inject({ url: '/openapi.json' })).json()
  t.strictSame(Object.keys(document.paths).filter((path: string) => path.includes('admin')), [])
})
