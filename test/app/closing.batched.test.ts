import { once } from 'node:events'
import type { Socket } from 'node:net'
import { connect as connectTls } from 'node:tls'
import t, { type Test } from 'tap'
import { startMockNvr, type MockNvrOptions } from '../../src/index.js'
import { AUTH, SAMPLE_DATA, TOKEN } from '../helpers/app.js'
import { openSocket, parseAnswers, untilClosed } from '../helpers/raw-http.js'
import { within } from '../helpers/bounded.js'

async function start (options: MockNvrOptions = {}) {
  const nvr = await startMockNvr({ data: SAMPLE_DATA, tokens: [TOKEN], ...options })
  const accepted = new Set<Socket>()
  nvr.app.server.on('connection', (socket: Socket) => accepted.add(socket))
  /** Resolves once the server has accepted `count` connections. */
  const acceptedCount = async (count: number) => {
    await within(`${count} connections accepted`, (async () => { while (accepted.size < count) await once(nvr.app.server, 'connection') })())
  }
  return { nvr, acceptedCount }
}

// A POST with half its body: a request the server is busy with, until the test sends the rest.
const HALF_A_REQUEST = `POST /nvr/v1/unknown HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{`

async function requestUnderWay (t: Test, port: number, arrived: Promise<unknown>) {
  const socket = await openSocket(port)
  const answer = untilClosed(socket)
  socket.write(HALF_A_REQUEST)
  await arrived
  t.teardown(() => socket.destroy())
  return { socket, answer }
}

// A connection without a whole request is cut by the headers time-out, 150 ms here; the close waits for that and no
// longer. The waits are bounded far past it, so a close held open fails naming what it waited for.
t.test('a connection that never sends a whole request holds the close open no longer than the headers time-out', async t => {
  const { nvr, acceptedCount } = await start({ headersTimeout: 150 })
  const silent = await openSocket(nvr.port)
  const startedHeaders = await openSocket(nvr.port)
  startedHeaders.write('GET /healthz HTTP/1.1\r\nHost: x\r\n')
  await acceptedCount(2)
  const closedByServer = Promise.all([untilClosed(silent), untilClosed(startedHeaders)])
  await within('the close, two connections open without a whole request', nvr.close(), 10_000)
  const received = await within('both connections cut by the server', closedByServer, 10_000)
  t.notMatch(received.join(''), /HTTP\/1\.1 2\d\d/, 'neither had a request answered')
  t.ok(silent.destroyed && startedHeaders.destroyed, 'both cut')
})

t.test('an answer under way when the close starts is finished, then its connection closes', async t => {
  const { nvr } = await start()
  const arrived = once(nvr.app.server, 'request')
  const { socket, answer } = await requestUnderWay(t, nvr.port, arrived)
  const closing = nvr.close()
  socket.write('}')
  const [notFound] = parseAnswers(Buffer.from(await answer, 'latin1'))
  t.equal(notFound?.status, 404)
  t.equal(notFound?.headers.connection, 'close')
  await closing
})

t.test('a request whose headers complete while closing is answered, not refused with a 503', async t => {
  const { nvr, acceptedCount } = await start({ headersTimeout: 0, requestTimeout: 0 })
  const socket = await openSocket(nvr.port)
  const answer = untilClosed(socket)
  socket.write('GET /healthz HTTP/1.1\r\n')
  await acceptedCount(1)
  const closing = nvr.close()
  socket.write('Host: x\r\n\r\n')
  const answers = parseAnswers(Buffer.from(await answer, 'latin1'))
  t.same(answers.map(({ status }) => status), [200])
  t.equal(answers[0]?.headers.connection, 'close')
  await closing
})

t.test('over HTTPS too, a silent connection is cut by the headers time-out, and the close ends', async t => {
  const { nvr, acceptedCount } = await start({ tlsSelfSigned: true, headersTimeout: 150 })
  const silent = connectTls({ port: nvr.port, host: '127.0.0.1', ca: nvr.certificate, servername: 'localhost' })
  await within('the TLS handshake', once(silent, 'secureConnect'))
  await acceptedCount(1)
  const closed = once(silent, 'close')
  await within('the close, a silent TLS connection open', nvr.close(), 10_000)
  await within('the silent TLS connection cut by the server', closed, 10_000)
  t.ok(silent.destroyed, 'cut')
})
