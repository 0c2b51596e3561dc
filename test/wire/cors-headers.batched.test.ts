import t from 'tap'
import { parseCli } from '../../src/cli/args.js'
import { AUTH, build } from '../helpers/app.js'

const ORIGIN = 'http://app.localhost:5173'
const preflight = { origin: ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' }

t.test('a preflight is answered without a token', async t => {
  const app = await build(t)
  const response = await app.inject({ method: 'OPTIONS', url: '/nvr/v1/cameras/cam-1/counting_lines', headers: preflight })
  t.equal(response.statusCode, 204)
  t.equal(response.headers['access-control-allow-origin'], '*')
  t.equal(response.headers['access-control-allow-methods'], 'GET, HEAD')
  t.equal(response.headers['access-control-allow-headers'], 'authorization')
  t.equal(response.headers['access-control-max-age'], '600')
  t.equal(response.headers.vary, 'Origin, Access-Control-Request-Headers')
  t.equal(response.headers['content-length'], '0')
})

t.test('a preflight that asks for no header gets no Access-Control-Allow-Headers', async t => {
  const app = await build(t)
  const { 'access-control-request-headers': _, ...withoutHeaders } = preflight
  for (const url of ['/nvr/v1/cameras/cam-1/counting_lines/line-1', '/healthz', '/nowhere']) {
    const response = await app.inject({ method: 'OPTIONS', url, headers: withoutHeaders })
    t.equal(response.statusCode, 204, url)
    t.equal(response.headers['access-control-allow-headers'], undefined)
    t.equal(response.headers['access-control-allow-methods'], 'GET, HEAD')
  }
})

t.test('successes and errors carry the CORS headers, so a browser app can read a 401 or 404', async t => {
  const app = await build(t)
  const cases = [
    [AUTH, '/nvr/v1/cameras/cam-1/counting_lines', 200],
    [{}, '/nvr/v1/cameras/cam-1/counting_lines', 401],
    [AUTH, '/nvr/v1/cameras/cam-9/counting_lines', 404],
    [AUTH, '/nvr/v1/cameras/%E0%A4%A/counting_lines', 400]
  ] as const
  for (const [headers, url, status] of cases) {
    const response = await app.inject({ url, headers: { ...headers, origin: ORIGIN } })
    t.equal(response.statusCode, status)
    t.equal(response.headers['access-control-allow-origin'], '*', url)
    t.equal(response.headers['access-control-expose-headers'], 'WWW-Authenticate, Allow, Retry-After')
    t.equal(response.headers.vary, 'Origin')
  }
})

t.test('a plain OPTIONS request is not a preflight: 401 without a token, then 405 with Allow, or 404 off the API', async t => {
  const app = await build(t)
  for (const headers of [AUTH, { ...AUTH, origin: ORIGIN }]) {
    const response = await app.inject({ method: 'OPTIONS', url: '/nvr/v1/cameras/cam-1/counting_lines', headers })
    t.equal(response.statusCode, 405)
    t.equal(response.headers.allow, 'GET, HEAD')
    t.equal((await app.inject({ method: 'OPTIONS', url: '/nvr/v1/nowhere', headers })).statusCode, 404)
  }
  for (const headers of [{}, { origin: ORIGIN }, { 'access-control-request-method': 'GET' }]) {
    const response = await app.inject({ method: 'OPTIONS', url: '/nvr/v1/cameras/cam-1/counting_lines', headers })
    t.equal(response.statusCode, 401, JSON.stringify(headers))
    t.equal((response.json() as { result: { errorCode: string } }).result.errorCode, 'NO_CREDENTIALS')
    t.equal(response.headers.allow, undefined)
  }
})

t.test('restricted origins: only listed ones get Access-Control-Allow-Origin', async t => {
  const app = await build(t, { corsOrigins: [ORIGIN] })
  for (const url of ['/nvr/v1/cameras/cam-1/counting_lines', '/nvr/v1/cameras/%ZZ/counting_lines']) {
    const allowed = await app.inject({ url, headers: { ...AUTH, origin: ORIGIN } })
    t.equal(allowed.headers['access-control-allow-origin'], ORIGIN)
    t.match(allowed.headers.vary, /Origin/)
    const refused = await app.inject({ url, headers: { ...AUTH, origin: 'http://evil.localhost' } })
    t.equal(refused.headers['access-control-allow-origin'], undefined)
    const noOrigin = await app.inject({ url, headers: AUTH })
    t.equal(noOrigin.headers['access-control-allow-origin'], undefined)
  }
  const refusedPreflight = await app.inject({ method: 'OPTIONS', url: '/nvr/v1/cameras/cam-1/counting_lines', headers: { ...preflight, origin: 'http://evil.localhost' } })
  t.equal(refusedPreflight.headers['access-control-allow-origin'], undefined)
})

t.test("'*' as the only origin allows any origin, as no list does", async t => {
  const app = await build(t, { corsOrigins: ['*'] })
  const response = await app.inject({ method: 'OPTIONS', url: '/nvr/v1/cameras/cam-1/counting_lines', headers: preflight })
  t.equal(response.headers['access-control-allow-origin'], '*')
  const answer = await app.inject({ url: '/nvr/v1/cameras/cam-1/counting_lines', headers: { ...AUTH, origin: 'http://any.localhost' } })
  t.equal(answer.headers['access-control-allow-origin'], '*')
})

t.test('restricted origins: a listed origin\'s preflight is allowed and cached for 10 minutes', async t => {
  const app = await build(t, { corsOrigins: ['http://other.localhost', ORIGIN] })
  const response = await app.inject({ method: 'OPTIONS', url: '/nvr/v1/cameras/cam-1/counting_lines/line-1', headers: preflight })
  t.equal(response.statusCode, 204)
  t.equal(response.headers['access-control-allow-origin'], ORIGIN)
  t.equal(response.headers['access-control-allow-headers'], 'authorization')
  t.equal(response.headers['access-control-max-age'], '600')
  t.match(response.headers.vary, /Origin/, 'a cache keeps answers for different origins apart')
})

t.test('--cors-origin is repeatable and MOCK_NVR_CORS_ORIGINS holds a comma-separated list', async t => {
  const corsOrigins = (argv: string[], env: Record<string, string>) =>
    (parseCli(argv, env) as { options: { corsOrigins?: string[] } }).options.corsOrigins
  t.strictSame(corsOrigins(['--cors-origin', ORIGIN, '--cors-origin', 'https://b.localhost'], {}), [ORIGIN, 'https://b.localhost'])
  t.strictSame(corsOrigins([], { MOCK_NVR_CORS_ORIGINS: `${ORIGIN}, https://b.localhost` }), [ORIGIN, 'https://b.localhost'])
  t.strictSame(corsOrigins(['--cors-origin', ORIGIN], { MOCK_NVR_CORS_ORIGINS: 'https://b.localhost' }), [ORIGIN], 'the flag wins')
  t.equal(corsOrigins([], {}), undefined, 'any origin by default')
})
