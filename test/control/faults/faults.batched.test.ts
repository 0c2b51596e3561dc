import t from 'tap'
import { AUTH } from '../../helpers/app.js'
import { buildControlled } from '../../helpers/control.js'

const LIST = '/nvr/v1/cameras/cam-1/counting_lines'
const LINE = '/nvr/v1/cameras/cam-1/counting_lines/line-1'
const envelope = (status: number, errorCode: string, errorMessage: string) => ({ result: { success: false, httpCode: status, errorCode, errorMessage }, content: null })

t.test('a status fault answers the next N requests in the envelope, then the usual answers come back', async t => {
  const { app, control } = await buildControlled(t)
  const fault = control.injectFault({ status: 500, times: 2 })
  t.strictSame(fault, { id: 'fault-1', status: 500, times: 2, remaining: 2 })
  for (const remaining of [1, 0]) {
    const response = await app.inject({ url: LIST, headers: AUTH })
    t.equal(response.statusCode, 500)
    t.equal(response.headers['content-type'], 'application/json; charset=utf-8')
    t.strictSame(response.json(), envelope(500, 'INJECTED_FAULT', 'Injected fault: 500 Internal Server Error.'))
    t.strictSame(control.faults().map(fault => fault.remaining), remaining === 0 ? [] : [remaining])
  }
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 200)
})

t.test('a status without a standard reason phrase is named Error in the message', async t => {
  const { app, control } = await buildControlled(t)
  control.injectFault({ status: 599 })
  const response = await app.inject({ url: LIST, headers: AUTH })
  t.equal(response.statusCode, 599)
  t.strictSame(response.json(), envelope(599, 'INJECTED_FAULT', 'Injected fault: 599 Error.'))
})

t.test('a fault without times stays until it is cleared', async t => {
  const { app, control } = await buildControlled(t)
  const { id } = control.injectFault({ status: 503 })
  for (let count = 0; count < 3; count++) t.equal((await app.inject({ url: LINE, headers: AUTH })).statusCode, 503)
  t.strictSame(control.faults(), [{ id, status: 503, remaining: null }])
  t.equal(control.clearFaults('fault-9'), false, 'an unknown id clears nothing')
  t.equal(control.clearFaults(id), true)
  t.equal((await app.inject({ url: LINE, headers: AUTH })).statusCode, 200)
})

t.test('a fault scoped to a route leaves the other route alone', async t => {
  const { app, control } = await buildControlled(t)
  control.injectFault({ status: 500, route: 'list' })
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 500)
  t.equal((await app.inject({ method: 'HEAD', url: LIST, headers: AUTH })).statusCode, 500, 'HEAD is the same operation')
  t.equal((await app.inject({ url: LINE, headers: AUTH })).statusCode, 200)
  control.clearFaults()
  control.injectFault({ status: 404, route: 'retrieve' })
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 200)
  t.equal((await app.inject({ url: LINE, headers: AUTH })).statusCode, 404)
})

t.test('a fault scoped to a camera takes both routes of that camera only, and route narrows it further', async t => {
  const { app, control } = await buildControlled(t)
  control.injectFault({ status: 503, camera: 'cam-2' })
  t.equal((await app.inject({ url: '/nvr/v1/cameras/cam-2/counting_lines', headers: AUTH })).statusCode, 503)
  t.equal((await app.inject({ url: '/nvr/v1/cameras/cam-2/counting_lines/line-3', headers: AUTH })).statusCode, 503)
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 200)
  control.clearFaults()
  control.injectFault({ status: 429, camera: 'cam-2', route: 'retrieve' })
  t.equal((await app.inject({ url: '/nvr/v1/cameras/cam-2/counting_lines', headers: AUTH })).statusCode, 200)
  t.equal((await app.inject({ url: '/nvr/v1/cameras/cam-2/counting_lines/line-3', headers: AUTH })).statusCode, 429)
})

t.test('an unscoped fault takes every authenticated API request; a scoped one only its operation', async t => {
  const { app, control } = await buildControlled(t)
  control.injectFault({ status: 500, route: 'list' })
  t.equal((await app.inject({ method: 'POST', url: LIST, headers: AUTH })).statusCode, 405)
  t.equal((await app.inject({ url: '/nvr/v1/elsewhere', headers: AUTH })).statusCode, 404)
  control.injectFault({ status: 502 })
  t.equal((await app.inject({ method: 'POST', url: LIST, headers: AUTH })).statusCode, 502)
  t.equal((await app.inject({ url: '/nvr/v1/elsewhere', headers: AUTH })).statusCode, 502)
})

t.test('the newest matching fault wins, and only it is used up', async t => {
  const { app, control } = await buildControlled(t)
  control.injectFault({ status: 500, times: 1 })
  control.injectFault({ status: 503, times: 1 })
  control.injectFault({ status: 404, camera: 'cam-9', times: 1 })
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 503)
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 500)
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 200)
  t.strictSame(control.faults().map(fault => fault.id), ['fault-3'])
})

t.test('faults apply after the bearer check: a refused request gets the real 401 and uses no fault', async t => {
  const { app, control } = await buildControlled(t)
  control.injectFault({ status: 503, times: 1 })
  const refused = await app.inject({ url: LIST })
  t.equal(refused.statusCode, 401)
  t.equal(refused.headers['www-authenticate'], 'Bearer realm="mock-nvr"')
  t.equal((await app.inject({ url: '/healthz' })).statusCode, 200, 'outside /nvr/v1 nothing is faulted')
  t.equal((await app.inject({ url: '/openapi.json' })).statusCode, 200)
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 503, 'the fault is still there for the next accepted request')
})

t.test('an injected error carries the headers a client reacts to', async t => {
  const { app, control } = await buildControlled(t)
  const answer = async (spec: object) => {
    control.clearFaults()
    control.injectFault(spec)
    return app.inject({ url: LIST, headers: AUTH })
  }
  t.equal((await answer({ status: 429 })).headers['retry-after'], '1')
  t.equal((await answer({ status: 503 })).headers['retry-after'], '1')
  t.equal((await answer({ status: 503, retryAfter: 30 })).headers['retry-after'], '30')
  t.equal((await answer({ status: 500, retryAfter: 5 })).headers['retry-after'], '5')
  t.equal((await answer({ status: 500 })).headers['retry-after'], undefined)
  t.equal((await answer({ status: 405 })).headers.allow, 'GET, HEAD')
  const unauthorized = await answer({ status: 401 })
  t.equal(unauthorized.headers['www-authenticate'], 'Bearer realm="mock-nvr", error="invalid_token"')
  t.strictSame(unauthorized.json(), envelope(401, 'INJECTED_FAULT', 'Injected fault: 401 Unauthorized.'))
  t.strictSame((await answer({ status: 403, errorCode: 'NO_ACCESS', errorMessage: 'This token may not read counting lines.' })).json(),
    envelope(403, 'NO_ACCESS', 'This token may not read counting lines.'), 'a fault names its own errorCode and errorMessage')
})

t.test('injected errors carry the CORS headers, so a browser app can read them', async t => {
  const open = await buildControlled(t)
  open.control.injectFault({ status: 503 })
  const response = await open.app.inject({ url: LIST, headers: { ...AUTH, origin: 'http://localhost:5173' } })
  t.equal(response.statusCode, 503)
  t.equal(response.headers['access-control-allow-origin'], '*')
  t.equal(response.headers['access-control-expose-headers'], 'WWW-Authenticate, Allow, Retry-After')

  const restricted = await buildControlled(t, { corsOrigins: ['http://localhost:5173'] })
  restricted.control.injectFault({ status: 429 })
  const allowed = await restricted.app.inject({ url: LIST, headers: { ...AUTH, origin: 'http://localhost:5173' } })
  t.equal(allowed.statusCode, 429)
  t.equal(allowed.headers['access-control-allow-origin'], 'http://localhost:5173')
})
