import t from 'tap'
import { apiErrors, toApiError } from '../../src/wire/errors.js'
import { handleError } from '../../src/wire/error-handler.js'
import { AUTH, build } from '../helpers/app.js'

const envelope = (httpCode: number, errorCode: string, errorMessage: string) => ({ result: { success: false, httpCode, errorCode, errorMessage }, content: null })

t.test('an unknown camera is a 404 on both routes', async t => {
  const app = await build(t)
  for (const url of ['/nvr/v1/cameras/cam-9/counting_lines', '/nvr/v1/cameras/cam-9/counting_lines/line-1']) {
    const response = await app.inject({ url, headers: AUTH })
    t.equal(response.statusCode, 404)
    t.equal(response.headers['content-type'], 'application/json; charset=utf-8')
    t.strictSame(response.json(), envelope(404, 'CAMERA_NOT_FOUND', 'No camera has the id "cam-9".'))
  }
})

t.test('an unknown line, or a line of another camera, is a 404', async t => {
  const app = await build(t)
  for (const lineId of ['line-9', 'line-3']) {
    const response = await app.inject({ url: `/nvr/v1/cameras/cam-1/counting_lines/${lineId}`, headers: AUTH })
    t.equal(response.statusCode, 404)
    t.strictSame(response.json(), envelope(404, 'COUNTING_LINE_NOT_FOUND', `Camera "cam-1" has no counting line with the id "${lineId}".`))
  }
})

t.test('a long id is quoted only by its start', async t => {
  const app = await build(t)
  const response = await app.inject({ url: `/nvr/v1/cameras/${'x'.repeat(500)}/counting_lines`, headers: AUTH })
  t.equal(response.json().result.errorMessage, `No camera has the id "${'x'.repeat(80)}…".`)
})

t.test('any other path is a 404 in the envelope, inside and outside the API', async t => {
  const app = await build(t)
  for (const url of ['/nvr/v1', '/nvr/v1/', '/nvr/v1/cameras', '/nvr/v1/cameras/cam-1', '/nvr/v2/cameras/cam-1/counting_lines', '/nothing', '/favicon.ico']) {
    const response = await app.inject({ url, headers: AUTH })
    t.equal(response.statusCode, 404, url)
    t.strictSame(response.json(), envelope(404, 'PATH_NOT_FOUND', 'Nothing is served at this path.'), url)
  }
})

t.test('another method on a known path is a 405 with Allow, before any body is read', async t => {
  const app = await build(t)
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const) {
    for (const url of ['/nvr/v1/cameras/cam-1/counting_lines', '/nvr/v1/cameras/cam-1/counting_lines/line-1']) {
      const response = await app.inject({ method, url, headers: { ...AUTH, 'content-type': 'application/x-unknown' }, payload: 'x'.repeat(2_000_000) })
      t.equal(response.statusCode, 405, `${method} ${url}`)
      t.equal(response.headers.allow, 'GET, HEAD')
      t.strictSame(response.json(), envelope(405, 'METHOD_NOT_ALLOWED', `The ${method} method is not allowed here; use GET or HEAD.`))
    }
  }
})

t.test('malformed percent-encoding is a 400 in the envelope', async t => {
  const app = await build(t)
  for (const url of ['/nvr/v1/cameras/%E0%A4%A/counting_lines', '/nvr/v1/cameras/cam-1/counting_lines/%ZZ']) {
    const response = await app.inject({ url, headers: AUTH })
    t.equal(response.statusCode, 400, url)
    t.strictSame(response.json(), envelope(400, 'BAD_ENCODING', 'The path holds malformed percent-encoding.'))
  }
  const outside = await app.inject({ url: '/elsewhere/%E0%A4%A' })
  t.equal(outside.statusCode, 400, 'outside the API no token is needed to learn the path is malformed')
  t.equal(outside.json().result.httpCode, 400)
})

t.test('Fastify client errors keep their status with a plain sentence', async t => {
  const error = Object.assign(new Error('Request body is too large'), { statusCode: 413 })
  t.strictSame({ ...toApiError(error) }, { ...apiErrors.internal(), statusCode: 413, code: 'MALFORMED_REQUEST', headers: {} })
  t.equal(toApiError(error).message, 'The request was refused: Payload Too Large.')
  t.equal(toApiError(Object.assign(new Error('x'), { statusCode: 499 })).message, 'The request was refused: client error.')
  t.equal(toApiError(Object.assign(new Error('x'), { statusCode: 503 })).statusCode, 500)
  t.equal(toApiError(null).statusCode, 500)
})

t.test('an unexpected failure is a generic 500, its detail only in the log', async t => {
  const app = await build(t)
  app.get('/boom', () => { throw new Error('secret internals at /work/app.ts:12') })
  const response = await app.inject('/boom')
  t.equal(response.statusCode, 500)
  t.strictSame(response.json(), envelope(500, 'INTERNAL_ERROR', 'The mock could not answer this request.'))
  t.notMatch(response.body, /secret|\/work\//)
  t.equal(typeof handleError, 'function')
})
