import { createServer as createNetServer } from 'node:net'
import { once } from 'node:events'
import t from 'tap'
import { TargetLinkError, verifyTarget } from '../../src/index.js'
import { describeFailure } from '../../src/target-client/target-client.js'
import { connectionFrom } from '../../src/target-client/target-connection.js'
import { line } from '../helpers/app.js'
import { mockLikeTarget, ok, send, startFakeTarget } from '../helpers/fake-target.js'
import { makeCertificate } from '../helpers/tls.js'

const TOKEN = 'target-token'
const LIST = '/nvr/v1/cameras/cam-1/counting_lines'

t.test('a target that cannot be reached ends the run with one line naming the target', async t => {
  const { url } = await startFakeTarget(t, () => {})
  const closedPort = url.replace(/:\d+$/, ':1')
  await t.rejects(verifyTarget({ target: closedPort, token: TOKEN, cameras: ['cam-1'] }), new TargetLinkError(`${closedPort}: cannot connect to the target: the connection was refused (ECONNREFUSED)`))
})

t.test('a time-out, a reset connection and a huge answer are each a violation of that request', async t => {
  const { url } = await startFakeTarget(t, (request, response) => {
    if (request.url === '/nvr/v1/cameras/slow/counting_lines') return
    if (request.url === '/nvr/v1/cameras/reset/counting_lines') {
      request.socket.destroy()
      return
    }
    if (request.url === '/nvr/v1/cameras/huge/counting_lines') {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.write('{"content":[')
      response.end(' '.repeat(5000))
      return
    }
    if (request.url === '/nvr/v1/cameras/declared/counting_lines') {
      // Only the headers: refused on its declared length, the answer is never waited for (else a time-out).
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' })
      response.flushHeaders()
      return
    }
    if (request.url === '/nvr/v1/cameras/lines/counting_lines') {
      send(response, 200, ok([line({ camera_id: 'lines' })]))
      return
    }
    request.socket.destroy()
  })
  // The camera never answered meets a short time-out; the others, answered or cut at once, a long one, so that no
  // answer has to beat a time-out on a loaded machine.
  const slow = await verifyTarget({ target: url, token: TOKEN, cameras: ['slow'], timeout: 300, maxBodyBytes: 4096 })
  t.strictSame(slow.violations.map(({ camera, line, path, problem }) => [camera, line, path, problem]), [['slow', null, '', 'no answer: no answer within 300 ms']])
  const { violations } = await verifyTarget({ target: url, token: TOKEN, cameras: ['reset', 'huge', 'declared', 'lines'], timeout: 30_000, maxBodyBytes: 4096 })
  t.strictSame(violations.map(({ camera, line, path, problem }) => [camera, line, path, problem]), [
    ['reset', null, '', 'no answer: the target closed the connection before answering in full'],
    ['huge', null, '', 'no answer: the answer is larger than 4 KiB, the most read'],
    ['declared', null, '', 'no answer: the answer is larger than 4 KiB, the most read'],
    ['lines', 'line-1', '', 'no answer: the target closed the connection before answering in full']
  ])
})

t.test('the run time-out and the caller\'s signal stop a run that hangs', async t => {
  const { url, requests } = await startFakeTarget(t, () => {})
  await t.rejects(verifyTarget({ target: url, token: TOKEN, cameras: ['cam-1'], runTimeout: 200 }), { message: 'the run took longer than 200 ms' })
  const controller = new AbortController()
  const stopped = verifyTarget({ target: url, token: TOKEN, cameras: ['cam-1'], signal: controller.signal })
  while (requests.length < 2) await new Promise(resolve => setImmediate(resolve))
  controller.abort()
  await t.rejects(stopped, { message: 'stopped before the run was complete' })
  await t.rejects(verifyTarget({ target: url, token: TOKEN, cameras: ['cam-1'], signal: AbortSignal.abort() }), { message: 'stopped before the run was complete' })
  t.equal(requests.length, 2, 'nothing is sent once stopped')
})

t.test('a run stopped while the unspecified cases are asked ends there, with no report', async t => {
  const controller = new AbortController()
  // The reads are answered as mock-nvr does; the first unspecified case (no Authorization) stops the run and is never answered.
  const { url, requests } = await mockLikeTarget(t, { cameras: [{ id: 'cam-1' }], counting_lines: [line()] }, TOKEN, request => {
    if (request.headers.authorization !== undefined) return false
    controller.abort()
    return true
  })
  await t.rejects(verifyTarget({ target: url, token: TOKEN, cameras: ['cam-1'], signal: controller.signal }), { message: 'stopped before the run was complete' })
  t.strictSame(requests.map(request => request.headers.authorization), [`Bearer ${TOKEN}`, `Bearer ${TOKEN}`, undefined], 'no case asked after the stop')
})

t.test('HTTPS: a self-signed certificate is refused unless trusted with ca or skipped with insecure', async t => {
  const tls = await makeCertificate()
  const { url } = await startFakeTarget(t, (_request, response) => send(response, 200, ok([])), tls)
  const target = url.replace('127.0.0.1', 'localhost')
  await t.rejects(verifyTarget({ target, token: TOKEN, cameras: ['cam-1'] }), new TargetLinkError(`${target}: the target's certificate is not trusted: it is self-signed: pass --ca FILE with its certificate (or its CA's), or --insecure to skip the check`))
  t.strictSame((await verifyTarget({ target, token: TOKEN, cameras: ['cam-1'], ca: tls.cert })).violations, [])
  t.strictSame((await verifyTarget({ target: url, token: TOKEN, cameras: ['cam-1'], insecure: true })).violations, [])
  const plain = url.replace('https:', 'http:')
  const answered = await verifyTarget({ target: plain, token: TOKEN, cameras: ['cam-1'] })
  t.match(answered.violations[0]?.problem, /^(answered 400|no answer: )/, 'http:// to an HTTPS target gets no usable answer')
})

t.test('an https:// target that speaks plain HTTP, and a target that does not speak HTTP', async t => {
  const { url } = await startFakeTarget(t, (_request, response) => send(response, 200, ok([])))
  await t.rejects(verifyTarget({ target: url.replace('http:', 'https:'), token: TOKEN, cameras: ['cam-1'] }), { message: /the TLS handshake failed \(.*\): is the target http:\/\/ rather than https:\/\/\?/ })
  const garbage = createNetServer(socket => socket.end('garbage\r\n\r\n'))
  garbage.listen(0, '127.0.0.1')
  await once(garbage, 'listening')
  t.teardown(() => garbage.close())
  const port = (garbage.address() as { port: number }).port
  const { violations } = await verifyTarget({ target: `http://127.0.0.1:${port}`, token: TOKEN, cameras: ['cam-1'] })
  t.match(violations[0]?.problem, /^no answer: the answer is not valid HTTP \(.+\): is the target https:\/\/ rather than http:\/\/\?$/)
})

t.test('failures are described in one line each', async t => {
  const failure = (code: string | undefined, message = 'x') => describeFailure(Object.assign(new Error(message), code === undefined ? {} : { code }), true)
  t.equal(failure('ENOTFOUND').message, 'cannot connect to the target: the host name is not known (ENOTFOUND)')
  t.ok(failure('ENOTFOUND').unreachable)
  t.equal(failure('ERR_TLS_CERT_ALTNAME_INVALID').message, 'the target\'s certificate names no host, not the target URL\'s host: give --target with a name it holds (and --ca FILE if it is not trusted here), or --insecure to skip the check')
  t.ok(describeFailure(Object.assign(new Error('x'), { code: 'ERR_TLS_CERT_ALTNAME_INVALID', host: 'a.test', cert: { subject: { CN: 'b.test' } } }), true).message.startsWith('the target\'s certificate is for b.test, not a.test: '), 'without alternative names, the common name')
  t.equal(failure('CERT_HAS_EXPIRED').message, 'the target\'s certificate is not trusted: it has expired: pass --ca FILE with its certificate (or its CA\'s), or --insecure to skip the check')
  t.ok(failure('ERR_TLS_CERT_SIGNATURE_ALGORITHM_UNSUPPORTED').message.startsWith('the target\'s certificate is not trusted: it fails the check (ERR_TLS_CERT_SIGNATURE_ALGORITHM_UNSUPPORTED): '))
  t.equal(failure('UND_ERR_CONNECT_TIMEOUT').message, 'cannot connect to the target: the connection was not made in time')
  t.equal(failure('UNABLE_TO_VERIFY_LEAF_SIGNATURE').unreachable, true)
  t.equal(failure('UND_ERR_SOCKET', 'other side closed').message, 'the target closed the connection before answering in full')
  t.equal(failure('EPIPE').message, 'the request failed (EPIPE)')
  t.equal(failure(undefined, 'odd').message, 'the request failed (odd)')
})

t.test('options are checked before anything is sent, and the token is never echoed', async t => {
  const base = { target: 'https://nvr.local:8443/', token: TOKEN, cameras: ['cam-1'] }
  const refused = (options: object, message: string, option: string) => t.throws(() => connectionFrom({ ...base, ...options }), { message, option })
  refused({ target: 'nvr.local' }, 'the target must be a URL like https://nvr.local:8443', 'target')
  refused({ target: 'ftp://nvr.local' }, 'the target must be an http:// or https:// URL, not ftp:', 'target')
  refused({ target: 'https://user:pw@nvr.local' }, 'the target must not hold a user name or password; the token is given on its own', 'target')
  refused({ target: 'https://nvr.local/?a=1' }, 'the target must not hold a query string or fragment', 'target')
  refused({ target: 'https://nvr.local/nvr/v1/' }, 'give the target\'s base URL, without /nvr/v1', 'target')
  refused({ token: 'two words' }, 'the token must be one word of visible ASCII characters (no spaces, no letters like ö or é)', 'token')
  refused({ token: 'line\nbreak' }, 'the token must be one word of visible ASCII characters (no spaces, no letters like ö or é)', 'token')
  refused({ cameras: [] }, 'name at least one camera to read', 'cameras')
  refused({ cameras: [''] }, 'a camera id must not be empty', 'cameras')
  refused({ timeout: 0 }, 'timeout must be a whole number of at least 1', 'timeout')
  refused({ runTimeout: 1.5 }, 'runTimeout must be a whole number of at least 1', 'runTimeout')
  refused({ maxBodyBytes: -1 }, 'maxBodyBytes must be a whole number of at least 1', 'maxBodyBytes')
  // A longer wait would fire after 1 ms: Node's timers stop at 2^31 - 1.
  refused({ timeout: 3_000_000_000 }, 'timeout must be at most 2147483647 milliseconds', 'timeout')
  refused({ runTimeout: 2_147_483_648 }, 'runTimeout must be at most 2147483647 milliseconds', 'runTimeout')
  const { cert, key } = await makeCertificate()
  refused({ target: 'http://nvr.local', ca: cert }, 'a CA certificate is only of use with an https:// target', 'ca')
  refused({ ca: 'PEM' }, 'the CA must hold a PEM certificate (-----BEGIN CERTIFICATE-----)', 'ca')
  refused({ ca: key }, 'the CA must hold a PEM certificate (-----BEGIN CERTIFICATE-----)', 'ca')
  const connection = connectionFrom({ ...base, target: 'http://nvr.local/base/' })
  t.equal(connection.base.href, 'http://nvr.local/base')
})

t.test('a target with a base path is asked under that path', async t => {
  const { url, requests } = await startFakeTarget(t, (_request, response) => send(response, 200, ok([])))
  const report = await verifyTarget({ target: `${url}/device/`, token: TOKEN, cameras: ['cam-1'] })
  t.equal(report.target, `${url}/device`)
  t.equal(requests[0]?.url, `/device${LIST}`)
})
