import t from 'tap'
import { TokenPolicy } from '../../src/wire/token-policy.js'
import { bearerChallenge } from '../../src/contract/bearer.js'
import { AUTH, build } from '../helpers/app.js'

t.test('a configured policy accepts only its tokens', async t => {
  const policy = new TokenPolicy(['alpha', 'beta'])
  t.equal(policy.acceptsAnyToken, false)
  t.equal(policy.judge('Bearer alpha'), 'accepted')
  t.equal(policy.judge('Bearer beta'), 'accepted')
  t.equal(policy.judge('Bearer gamma'), 'invalid_token')
  t.equal(policy.judge('Bearer alph'), 'invalid_token')
})

t.test('without configured tokens any non-empty token is accepted', async t => {
  const policy = new TokenPolicy([])
  t.equal(policy.acceptsAnyToken, true)
  t.equal(policy.judge('Bearer anything'), 'accepted')
  t.equal(policy.judge('Bearer '), 'invalid_request')
})

t.test('the header is judged as RFC 6750 describes', async t => {
  const policy = new TokenPolicy(['tok'])
  const cases: Array<[string | undefined, string]> = [
    [undefined, 'no_credentials'],
    ['', 'no_credentials'],
    ['Basic dXNlcjpwYXNz', 'no_credentials'],
    ['tok', 'no_credentials'],
    ['Bearer', 'invalid_request'],
    ['Bearer ', 'invalid_request'],
    ['Bearer tok extra', 'invalid_request'],
    ['Bearer tok\textra', 'invalid_request'],
    ['bearer tok', 'accepted'],
    ['BEARER tok', 'accepted'],
    ['Bearer   tok', 'accepted']
  ]
  for (const [header, outcome] of cases) t.equal(policy.judge(header), outcome, JSON.stringify(header))
})

t.test('an accepted header is remembered, and remembering changes no answer', async t => {
  const policy = new TokenPolicy(['tok'])
  for (let round = 0; round < 2; round++) {
    t.equal(policy.judge('Bearer tok'), 'accepted')
    t.equal(policy.judge('Bearer tok2'), 'invalid_token')
    t.equal(policy.judge('Bearer to'), 'invalid_token')
    t.equal(policy.judge('Bearer tok tok'), 'invalid_request')
  }
  const anyToken = new TokenPolicy([])
  // More distinct headers than are remembered: the memory is emptied and every one is still accepted.
  const outcomes = new Set<string>()
  for (let index = 0; index <= 1024; index++) outcomes.add(anyToken.judge(`Bearer token-${index}`))
  t.strictSame([...outcomes], ['accepted'])
  t.equal(anyToken.judge('Bearer token-0'), 'accepted')
  t.equal(anyToken.judge('Bearer '), 'invalid_request')
})

t.test('1,024 accepted headers are remembered, then the memory is emptied', async t => {
  // A remembered header's admission is the same object again; the numbers are written out, not read from the code.
  const policy = new TokenPolicy([])
  const first = policy.admit('Bearer first')
  for (let index = 1; index <= 1023; index++) policy.admit(`Bearer token-${index}`)
  t.equal(policy.admit('Bearer first'), first, 'with 1,023 others, 1,024 in all: remembered')
  policy.admit('Bearer token-1024')
  const again = policy.admit('Bearer first')
  t.not(again, first, 'the 1,025th emptied the memory')
  t.strictSame(again, first, 'to the same admission')
})

t.test('the challenge carries the error only when credentials were sent', async t => {
  t.equal(bearerChallenge('no_credentials'), 'Bearer realm="mock-nvr"')
  t.equal(bearerChallenge('invalid_request'), 'Bearer realm="mock-nvr", error="invalid_request"')
  t.equal(bearerChallenge('invalid_token'), 'Bearer realm="mock-nvr", error="invalid_token"')
})

t.test('every refused request is a 401 in the envelope with WWW-Authenticate', async t => {
  const app = await build(t)
  const cases: Array<[Record<string, string>, string, string, string]> = [
    [{}, 'Bearer realm="mock-nvr"', 'NO_CREDENTIALS', 'This request needs an Authorization header with a bearer token.'],
    [{ authorization: 'Basic dXNlcjpwYXNz' }, 'Bearer realm="mock-nvr"', 'NO_CREDENTIALS', 'This request needs an Authorization header with a bearer token.'],
    [{ authorization: 'Bearer' }, 'Bearer realm="mock-nvr", error="invalid_request"', 'MALFORMED_CREDENTIALS', 'The Authorization header must be "Bearer" followed by one token.'],
    [{ authorization: 'Bearer a b' }, 'Bearer realm="mock-nvr", error="invalid_request"', 'MALFORMED_CREDENTIALS', 'The Authorization header must be "Bearer" followed by one token.'],
    [{ authorization: 'Bearer wrong-token' }, 'Bearer realm="mock-nvr", error="invalid_token"', 'TOKEN_REFUSED', 'The bearer token was not accepted.']
  ]
  for (const [headers, challenge, errorCode, errorMessage] of cases) {
    const response = await app.inject({ url: '/nvr/v1/cameras/cam-1/counting_lines', headers })
    t.equal(response.statusCode, 401)
    t.equal(response.headers['www-authenticate'], challenge)
    t.strictSame(response.json(), { result: { success: false, httpCode: 401, errorCode, errorMessage }, content: null })
    t.notMatch(response.body, /wrong-token|dXNlcjpwYXNz/, 'the token is not echoed')
  }
})

t.test('authentication comes before existence, whatever the path or method', async t => {
  const app = await build(t)
  const requests = [
    ['GET', '/nvr/v1/cameras/cam-1/counting_lines/line-1'],
    ['GET', '/nvr/v1/cameras/no-such-camera/counting_lines'],
    ['GET', '/nvr/v1/cameras/cam-1/counting_lines/no-such-line'],
    ['GET', '/nvr/v1/no/such/path'],
    ['GET', '/nvr/v1'],
    ['DELETE', '/nvr/v1/cameras/cam-1/counting_lines'],
    ['POST', '/nvr/v1/anything'],
    ['OPTIONS', '/nvr/v1/cameras/cam-1/counting_lines'],
    ['GET', '/nvr/v1/cameras/%E0%A4%A/counting_lines']
  ] as const
  for (const [method, url] of requests) {
    const response = await app.inject({ method, url })
    t.equal(response.statusCode, 401, `${method} ${url}`)
    t.equal(response.json().result.httpCode, 401)
  }
})

t.test('the scheme is case-insensitive on the wire', async t => {
  const app = await build(t)
  const response = await app.inject({ url: '/nvr/v1/cameras/cam-1/counting_lines', headers: { authorization: 'bearer test-token' } })
  t.equal(response.statusCode, 200)
})

t.test('health needs no token', async t => {
  const app = await build(t)
  const response = await app.inject('/healthz')
  t.equal(response.statusCode, 200)
  t.strictSame(response.json(), { status: 'ok', cameras: 3, countingLines: 3 })
  t.equal((await app.inject({ url: '/healthz', headers: AUTH })).statusCode, 200)
})
