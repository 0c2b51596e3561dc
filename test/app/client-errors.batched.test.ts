import { connect } from 'node:net'
import type { Socket } from 'node:net'
import t, { type Test } from 'tap'
import { answerClientError, refusedMethod } from '../../src/app/client-errors.js'
import { AUTH, build } from '../helpers/app.js'

/** Writes raw bytes to the server and collects everything it answers until it closes the socket. */
function exchange (port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    socket.setEncoding('utf8')
    socket.on('data', chunk => { answer += chunk })
    socket.on('error', reject)
    socket.on('close', () => resolve(answer))
    socket.end(request)
  })
}

async function listening (t: Test, maxHeaderSize?: number) {
  const app = await build(t, maxHeaderSize === undefined ? {} : { maxHeaderSize })
  await app.listen({ port: 0, host: '127.0.0.1' })
  return (app.server.address() as { port: number }).port
}

t.test('headers over the limit get a 431 in the envelope, then the connection closes', async t => {
  const port = await listening(t, 8192)
  const answer = await exchange(port, `GET /nvr/v1/cameras/${'x'.repeat(9000)}/counting_lines HTTP/1.1\r\nHost: x\r\n\r\n`)
  t.match(answer, /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/)
  t.match(answer, /Connection: close/)
  t.match(answer, /\r\n\r\n\{"result":\{"success":false,"httpCode":431,"errorCode":"HEADERS_TOO_LARGE","errorMessage":"The request was refused: Request Header Fields Too Large\."\},"content":null\}$/)
})

t.test('bytes that are not HTTP get a 400 in the envelope', async t => {
  const port = await listening(t)
  const answer = await exchange(port, 'HELLO\r\n\r\n')
  t.match(answer, /^HTTP\/1\.1 400 Bad Request\r\n/)
  t.match(answer, /"httpCode":400/)
})

t.test('the server answers normally after refusing a connection', async t => {
  const port = await listening(t)
  await exchange(port, 'HELLO\r\n\r\n')
  const response = await fetch(`http://127.0.0.1:${port}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH })
  t.equal(response.status, 200)
})

t.test('a reset or unwritable socket is only closed, never written to', async t => {
  const written: string[] = []
  let destroyed = 0
  const socket = (state: { destroyed: boolean, writable: boolean }) => ({
    ...state,
    write: (text: string) => { written.push(text) },
    destroy: () => { destroyed++ }
  }) as unknown as Socket
  answerClientError(Object.assign(new Error('reset'), { code: 'ECONNRESET' }), socket({ destroyed: false, writable: true }))
  answerClientError(new Error('late'), socket({ destroyed: true, writable: false }))
  t.equal(destroyed, 0)
  answerClientError(new Error('half closed'), socket({ destroyed: false, writable: false }))
  t.equal(destroyed, 1)
  answerClientError(Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket({ destroyed: false, writable: true }))
  t.equal(written.length, 1)
  t.match(written[0], /^HTTP\/1\.1 408 Request Timeout/)
})

/** The answer must be the headers and nothing more: Content-Length states the envelope's length, no byte follows. */
function headersOnly (t: Test, answer: string, status: number) {
  const end = answer.indexOf('\r\n\r\n')
  t.match(answer, new RegExp(`^HTTP/1\\.1 ${status} `))
  t.equal(end + 4, answer.length, 'nothing follows the headers')
  t.match(answer, /\r\nContent-Length: \d+\r\n/)
}

t.test('a HEAD refused by the parser gets the headers alone, wherever the refusal comes', async t => {
  const port = await listening(t, 8192)
  headersOnly(t, await exchange(port, 'HEAD /nvr/v1/x?\xff HTTP/1.1\r\nHost: a\r\n\r\n'), 400)
  headersOnly(t, await exchange(port, 'HEAD /nvr/v1/x HTTP/2.0\nHost: a\n\n'), 400)
  headersOnly(t, await exchange(port, `HEAD /nvr/v1/cameras/${'x'.repeat(9000)}/counting_lines HTTP/1.1\r\nHost: x\r\n\r\n`), 431)
})

t.test('the method of a refused request is the parser\'s once it read the headers, else the last request line read', async t => {
  const refused = (text: string, bytesParsed = text.length) => Object.assign(new Error('refused'), { rawPacket: Buffer.from(text, 'latin1'), bytesParsed })
  const plain = {} as Socket
  t.equal(refusedMethod(refused('HEAD /x?\xff HTTP/1.1\r\n', 8), plain), 'HEAD')
  t.equal(refusedMethod(refused('GET / HTTP/1.1\r\n\r\nM-SEARCH /\xff'), plain), 'M-SEARCH')
  t.equal(refusedMethod(refused('X: ' + 'y'.repeat(100)), plain), undefined, 'a read that starts past the request line')
  t.equal(refusedMethod(new Error('timeout'), plain), undefined, 'a time-out before the headers ended')
  const timedOutBody = { parser: { incoming: { method: 'HEAD', complete: false } } } as unknown as Socket
  t.equal(refusedMethod(new Error('timeout'), timedOutBody), 'HEAD')
  const afterComplete = { parser: { incoming: { method: 'HEAD', complete: true } } } as unknown as Socket
  t.equal(refusedMethod(refused('GET /\xff'), afterComplete), 'GET', 'a request already complete is not the refused one')
})

t.test('a 408 to a HEAD has no body', async t => {
  const written: string[] = []
  const socket = { destroyed: false, writable: true, parser: { incoming: { method: 'HEAD', complete: false } }, write: (text: string) => { written.push(text) }, destroy: () => {} } as unknown as Socket
  answerClientError(Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket)
  t.match(written[0], /^HTTP\/1\.1 408 Request Timeout\r\n[^]*Content-Length: \d+\r\nConnection: close\r\n\r\n$/)
})
