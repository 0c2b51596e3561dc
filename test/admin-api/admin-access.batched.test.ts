import t from 'tap'
import { buildApp } from '../../src/app/build-app.js'
import { TokenPolicy } from '../../src/wire/token-policy.js'
import { CorsPolicy } from '../../src/wire/cors.js'
import { DataStore } from '../../src/data/data-store.js'
import { datasetFromData } from '../../src/data/dataset.js'
import { startMockNvr } from '../../src/index.js'
import { AUTH, build, SAMPLE_DATA, TOKEN } from '../helpers/app.js'
import { ADMIN, ADMIN_TOKEN, buildControlled } from '../helpers/control.js'
import { captureLogs } from '../helpers/log-capture.js'

const LIST = '/nvr/v1/cameras/cam-1/counting_lines'
const refusal = (status: number, errorCode: string, errorMessage: string) => ({ result: { success: false, httpCode: status, errorCode, errorMessage }, content: null })
const json = (body: unknown) => ({ headers: { ...ADMIN, 'content-type': 'application/json' }, payload: JSON.stringify(body) })

t.test('the admin API is off unless an admin token is set: /__admin/ is a 404 in the envelope', async t => {
  const app = await build(t)
  for (const headers of [{}, AUTH, ADMIN]) {
    const response = await app.inject({ url: '/__admin/faults', headers })
    t.equal(response.statusCode, 404)
    t.strictSame(response.json(), refusal(404, 'PATH_NOT_FOUND', 'Nothing is served at this path.'))
  }
})

t.test('a malformed admin URL is a 401 without the admin token and a 400 with it, as under /nvr/v1', async t => {
  const { app } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  for (const url of ['/__admin/faults/%zz', '/__admin%zz']) {
    const refused = await app.inject({ url, headers: AUTH })
    t.equal(refused.statusCode, url === '/__admin%zz' ? 400 : 401, url)
  }
  const unauthorized = await app.inject({ url: '/__admin/faults/%zz' })
  t.equal(unauthorized.headers['www-authenticate'], 'Bearer realm="mock-nvr admin"')
  const malformed = await app.inject({ url: '/__admin/faults/%zz', headers: ADMIN })
  t.equal(malformed.statusCode, 400)
  t.strictSame(malformed.json(), refusal(400, 'BAD_ENCODING', 'The path holds malformed percent-encoding.'))
})

t.test('every admin call needs the admin token; a missing or wrong one is a 401 with WWW-Authenticate', async t => {
  const { app } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  const cases: Array<[Record<string, string>, string, string, string]> = [
    [{}, 'Bearer realm="mock-nvr admin"', 'NO_CREDENTIALS', 'The admin API needs an Authorization header with the admin token as a bearer token.'],
    [{ authorization: 'Basic YWRtaW46YWRtaW4=' }, 'Bearer realm="mock-nvr admin"', 'NO_CREDENTIALS', 'The admin API needs an Authorization header with the admin token as a bearer token.'],
    [{ authorization: 'Bearer a b' }, 'Bearer realm="mock-nvr admin", error="invalid_request"', 'MALFORMED_CREDENTIALS', 'The Authorization header must be "Bearer" followed by one token.'],
    [{ authorization: 'Bearer wrong-admin' }, 'Bearer realm="mock-nvr admin", error="invalid_token"', 'TOKEN_REFUSED', 'The bearer token is not the admin token.'],
    [AUTH, 'Bearer realm="mock-nvr admin", error="invalid_token"', 'TOKEN_REFUSED', 'The bearer token is not the admin token.']
  ]
  for (const [headers, challenge, code, message] of cases) {
    for (const [method, url] of [['GET', '/__admin/faults'], ['POST', '/__admin/reset'], ['GET', '/__admin/no-such-thing']] as const) {
      const response = await app.inject({ method, url, headers })
      t.equal(response.statusCode, 401, `${method} ${url} ${JSON.stringify(headers)}`)
      t.equal(response.headers['www-authenticate'], challenge)
      t.strictSame(response.json(), refusal(401, code, message))
    }
  }
  const unknown = await app.inject({ url: '/__admin/no-such-thing', headers: ADMIN })
  t.strictSame(unknown.json(), refusal(404, 'PATH_NOT_FOUND', 'Nothing is served at this path.'))
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
  await t.rejects(startMockNvr({ tokens: ['shared'], adminToken: 'shared' }), {
    name: 'OptionsError', message: 'the same token cannot be both option adminToken and option tokens: the admin token must never open the device API'
  })
  const store = new DataStore(datasetFromData(SAMPLE_DATA))
  await t.rejects(buildApp({ store, tokens: new TokenPolicy([]), cors: new CorsPolicy(), maxHeaderSize: 65536, adminToken: ADMIN_TOKEN }), {
    name: 'OptionsError', message: 'option adminToken must differ from every token: the admin token must never open the device API'
  })
  await t.rejects(startMockNvr({ adminToken: 'has space' }), { name: 'OptionsError', message: 'option adminToken must be one word of visible ASCII characters (no spaces, no letters like ö or é)' })
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
    'admin: data reset to the start-up data', 'admin: reset to the start-up data, scoped tokens and rate limit, no faults, an empty journal']) {
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
