import { once } from 'node:events'
import type { Socket } from 'node:net'
import t, { type Test } from 'tap'
import { parseCli } from '../../src/cli/args.js'
import { DEFAULT_LIMITS, nodeServerOptions } from '../../src/config/limits.js'
import { LIBRARY_DEFAULTS } from '../../src/config/options.js'
import { startMockNvr, type MockNvrOptions } from '../../src/index.js'
import { AUTH, SAMPLE_DATA, TOKEN } from '../helpers/app.js'
import { captureLogs } from '../helpers/log-capture.js'
import { exchange, openSocket, parseAnswers, untilClosed } from '../helpers/raw-http.js'

// Every test waits for the close event, never for a fixed time: small limits only make the wait short.
async function start (t: Test, options: MockNvrOptions) {
  const nvr = await startMockNvr({ data: SAMPLE_DATA, tokens: [TOKEN], ...options })
  t.teardown(nvr.close)
  return nvr
}

const REQUEST_TIMEOUT_ANSWER = /^HTTP\/1\.1 408 Request Timeout\r\n[^]*\r\n\r\n\{"result":\{"success":false,"httpCode":408,"errorCode":"REQUEST_TIMEOUT","errorMessage":"The request was refused: Request Timeout\."\},"content":null\}$/

t.test('a client that never finishes its headers is cut off with a 408 (slow-loris)', async t => {
  const nvr = await start(t, { headersTimeout: 150, requestTimeout: 0 })
  t.equal(nvr.app.server.headersTimeout, 150, 'the limit set, not Node\'s default, cuts it off')
  const socket = await openSocket(nvr.port)
  const answer = untilClosed(socket)
  socket.write('GET /nvr/v1/cameras/cam-1/counting_lines HTTP/1.1\r\nHost: x\r\nX-Slow: ')
  t.match(await answer, REQUEST_TIMEOUT_ANSWER)
})

t.test('a connection that never sends a byte is cut off too', async t => {
  const nvr = await start(t, { headersTimeout: 150 })
  const socket = await openSocket(nvr.port)
  t.match(await untilClosed(socket), REQUEST_TIMEOUT_ANSWER)
})

t.test('a request whose body never arrives in full is cut off by the request time-out', async t => {
  const nvr = await start(t, { headersTimeout: 0, requestTimeout: 200, adminToken: 'admin-secret' })
  t.equal(nvr.app.server.requestTimeout, 200)
  const socket = await openSocket(nvr.port)
  const answer = untilClosed(socket)
  socket.write('POST /__admin/faults HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin-secret\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{')
  t.match(await answer, REQUEST_TIMEOUT_ANSWER)
})

t.test('the device API refuses a path it does not have before its body arrives, as it refuses another method', async t => {
  const nvr = await start(t, { headersTimeout: 0, requestTimeout: 0 })
  const socket = await openSocket(nvr.port)
  t.teardown(() => socket.destroy())
  socket.write(`POST /nvr/v1/unknown HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{`)
  const [first] = await once(socket, 'data') as [Buffer]
  t.match(first.toString('latin1'), /^HTTP\/1\.1 404 Not Found\r\n/)
})

t.test('an idle keep-alive connection is closed after the keep-alive time-out', async t => {
  const nvr = await start(t, { keepAliveTimeout: 100 })
  t.equal(nvr.app.server.keepAliveTimeout, 100, 'the limit set, not Node\'s default, closes it')
  const socket = await openSocket(nvr.port)
  const answer = untilClosed(socket)
  socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')
  const [healthz] = parseAnswers(Buffer.from(await answer, 'latin1'))
  t.equal(healthz?.status, 200)
  t.equal(healthz?.headers.connection, 'keep-alive')
})

t.test('connections over the cap are closed unanswered and the log says why; the server then serves again', async t => {
  const logs = captureLogs()
  const nvr = await start(t, { maxConnections: 2, logger: logs.logger })
  const serverSockets: Socket[] = []
  nvr.app.server.on('connection', (socket: Socket) => serverSockets.push(socket))
  const held = [await openSocket(nvr.port), await openSocket(nvr.port)]
  while (serverSockets.length < 2) await once(nvr.app.server, 'connection')
  const warning = logs.next(record => record.msg.startsWith('connection refused'))
  const refused = await exchange(nvr.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')
  t.equal(refused.received.length, 0, 'no answer over the cap')
  t.match(await warning, { level: 40, maxConnections: 2, refused: 1, msg: 'connection refused: 2 connections are open already (--max-connections)' })
  await exchange(nvr.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')
  t.equal(logs.records.filter(record => record.msg.startsWith('connection refused')).length, 1, 'one warning, not one per refusal')

  const released = once(serverSockets[0] as Socket, 'close')
  held[0]?.destroy()
  await released
  const { received } = await exchange(nvr.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')
  t.equal(parseAnswers(received)[0]?.status, 200, 'below the cap again, a connection is served')
  held[1]?.destroy()
})

t.test('no cap on connections when it is 0', async t => {
  const nvr = await start(t, { maxConnections: 0 })
  t.equal(nvr.app.server.maxConnections, undefined)
})

t.test('an id as long as the header size allows is routed; a longer request line gets 431', async t => {
  const nvr = await start(t, { maxHeaderSize: 16384 })
  const ask = async (id: string) => parseAnswers((await exchange(nvr.port, `GET /nvr/v1/cameras/${id}/counting_lines HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH.authorization}\r\n\r\n`)).received)[0]
  const fits = await ask('x'.repeat(16000))
  t.equal(fits?.status, 404)
  t.match(fits?.body, /No camera has the id \\"x{80}…\\"/, 'the id reached the route: the path length limit is the header size')
  t.equal((await ask('x'.repeat(17000)))?.status, 431)
})

t.test('the headers time-out never exceeds the request time-out, and both are checked at least every second', async t => {
  t.match(nodeServerOptions(65536, DEFAULT_LIMITS), { maxHeaderSize: 65536, headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1000, requireHostHeader: false })
  t.match(nodeServerOptions(8192, { ...DEFAULT_LIMITS, headersTimeout: 60_000, requestTimeout: 5000 }), { headersTimeout: 5000, requestTimeout: 5000 })
  t.match(nodeServerOptions(8192, { ...DEFAULT_LIMITS, headersTimeout: 200, requestTimeout: 0 }), { headersTimeout: 200, connectionsCheckingInterval: 200 })
  t.match(nodeServerOptions(8192, { ...DEFAULT_LIMITS, headersTimeout: 0, requestTimeout: 0 }), { headersTimeout: 0, requestTimeout: 0 })
})

t.test('each limit is a flag with an environment twin, and the library defaults are the documented ones', async t => {
  const options = (argv: string[], env: Record<string, string> = {}) => (parseCli(argv, env) as { options: Record<string, unknown> }).options
  t.match(options(['--headers-timeout', '5000', '--request-timeout', '20000', '--keep-alive-timeout', '4000', '--max-connections', '50']), {
    headersTimeout: 5000, requestTimeout: 20000, keepAliveTimeout: 4000, maxConnections: 50
  })
  t.match(options([], { MOCK_NVR_HEADERS_TIMEOUT: '1', MOCK_NVR_REQUEST_TIMEOUT: '2', MOCK_NVR_KEEP_ALIVE_TIMEOUT: '3', MOCK_NVR_MAX_CONNECTIONS: '4' }), {
    headersTimeout: 1, requestTimeout: 2, keepAliveTimeout: 3, maxConnections: 4
  })
  t.match(LIBRARY_DEFAULTS, { headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 72_000, maxConnections: 1000, maxHeaderSize: 65536 })
  await t.rejects(startMockNvr({ keepAliveTimeout: 0 }), { name: 'OptionsError', message: 'option keepAliveTimeout must be a whole number from 1 to 3600000, not 0' })
})
