import type { Socket } from 'node:net'
import t, { type Test } from 'tap'
import { refuseOnSocket } from '../../src/app/client-errors.js'
import { apiErrors } from '../../src/wire/errors.js'
import { BODY_LIMIT_BYTES } from '../../src/config/limits.js'
import { AUTH, build } from '../helpers/app.js'
import { exchange, openSocket, parseAnswers, untilClosed } from '../helpers/raw-http.js'

async function listening (t: Test) {
  const app = await build(t)
  await app.listen({ port: 0, host: '127.0.0.1' })
  return (app.server.address() as { port: number }).port
}

async function ask (port: number, request: string, head = false) {
  return parseAnswers((await exchange(port, request)).received, head)
}

const LIST = '/nvr/v1/cameras/cam-1/counting_lines'

t.test('every method Node parses reaches the routes: 405 on a known path, 401 first without a token', async t => {
  const app = await build(t)
  for (const method of ['PROPFIND', 'M-SEARCH', 'PURGE', 'MKCOL']) {
    const refused = await app.inject({ method: method as 'GET', url: LIST, headers: AUTH })
    t.equal(refused.statusCode, 405, method)
    t.equal(refused.headers.allow, 'GET, HEAD')
    t.equal((await app.inject({ method: method as 'GET', url: LIST })).statusCode, 401, `${method} without a token`)
  }
})

t.test('an HTTP/1.1 request without Host gets 400 in the envelope, after the bearer check; HTTP/1.0 needs none', async t => {
  const port = await listening(t)
  const [missing] = await ask(port, `GET ${LIST} HTTP/1.1\r\nAuthorization: ${AUTH.authorization}\r\n\r\n`)
  t.equal(missing?.status, 400)
  t.equal(missing?.body, '{"result":{"success":false,"httpCode":400,"errorCode":"MALFORMED_REQUEST","errorMessage":"An HTTP/1.1 request needs a Host header."},"content":null}')
  t.equal(missing?.headers['access-control-allow-origin'], '*')
  t.equal((await ask(port, `GET ${LIST} HTTP/1.1\r\n\r\n`))[0]?.status, 401)
  for (const url of ['/nvr/v1', '/nvr/v1?x=1', '/nvr/v1/']) {
    t.equal((await ask(port, `GET ${url} HTTP/1.1\r\n\r\n`))[0]?.status, 401, `${url}: the area's bearer check first`)
  }
  t.equal((await ask(port, `GET ${LIST} HTTP/1.0\r\nAuthorization: ${AUTH.authorization}\r\n\r\n`))[0]?.status, 200)
})

t.test('an unknown expectation is ignored, as HTTP allows; 100-continue is honoured', async t => {
  const port = await listening(t)
  const [served] = await ask(port, `GET ${LIST} HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\nAuthorization: ${AUTH.authorization}\r\n\r\n`)
  t.equal(served?.status, 200)
  const [continued] = await ask(port, `GET ${LIST} HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nAuthorization: ${AUTH.authorization}\r\n\r\n`)
  t.equal(continued?.status, 200)
})

t.test('CONNECT is refused with 405 in the envelope and no tunnel opens', async t => {
  const port = await listening(t)
  const answers = await ask(port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\nbytes for the tunnel')
  t.equal(answers.length, 1)
  t.equal(answers[0]?.status, 405)
  t.equal(answers[0]?.headers.allow, 'GET, HEAD')
  t.equal(answers[0]?.body, '{"result":{"success":false,"httpCode":405,"errorCode":"METHOD_NOT_ALLOWED","errorMessage":"The CONNECT method is not allowed here; use GET or HEAD."},"content":null}')
})

t.test('a body nobody reads is not drained: the answer comes before it and the connection closes', async t => {
  const port = await listening(t)
  for (const [method, status] of [['POST', 405], ['GET', 200]] as const) {
    const socket = await openSocket(port)
    const closed = untilClosed(socket)
    // 100 MB announced, 1 KB sent, and the socket left open: only the server can end this exchange.
    socket.write(`${method} ${LIST} HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n${'x'.repeat(1024)}`)
    const [answer] = parseAnswers(Buffer.from(await closed, 'latin1'))
    t.equal(answer?.status, status, method)
    t.equal(answer?.headers.connection, 'close', method)
  }
  const [withoutBody] = await ask(port, `GET ${LIST} HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH.authorization}\r\n\r\n`)
  t.equal(withoutBody?.headers.connection, 'keep-alive', 'a request without a body keeps its connection')
})

t.test('a refusal outside Fastify never writes into an answer already under way', async t => {
  const written: string[] = []
  let destroyed = 0
  const socket = {
    writable: true,
    _httpMessage: { headersSent: true },
    write: (text: string) => { written.push(text) },
    destroy: () => { destroyed++ }
  } as unknown as Socket
  refuseOnSocket(socket, apiErrors.badUrl())
  t.same(written, [])
  t.equal(destroyed, 1)
})

t.test('a body over the limit is refused with 413 in the envelope; one just under it is read', async t => {
  const app = await build(t)
  const send = (bytes: number) => app.inject({ method: 'POST', url: '/upload', headers: { 'content-type': 'text/plain' }, payload: 'x'.repeat(bytes) })
  const tooLarge = await send(BODY_LIMIT_BYTES + 1)
  t.equal(tooLarge.statusCode, 413)
  t.match(tooLarge.json(), { result: { success: false, httpCode: 413 }, content: null })
  t.equal((await send(BODY_LIMIT_BYTES)).statusCode, 404, 'read, then the unknown path is answered')
  const port = await listening(t)
  const [refused] = await ask(port, `POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: ${10 * BODY_LIMIT_BYTES}\r\n\r\n`)
  t.equal(refused?.status, 413, 'decided from Content-Length, before the body is sent')
})
