import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { OptionsError, startMockNvr } from '../../src/index.js'
import { line } from '../helpers/app.js'
import { ok, send, startFakeTarget } from '../helpers/fake-target.js'
import { captureLogs } from '../helpers/log-capture.js'
import { exchange } from '../helpers/raw-http.js'
import { makeCertificate } from '../helpers/tls.js'

const TOKEN = 'proxy-token-4d2'
const AUTH = { authorization: `Bearer ${TOKEN}` }
const GOOD = line({ camera_id: 'cam-1' })
const BAD = { ...line({ id: 'line-bad', camera_id: 'cam-2' }), zone: 'x' }

/** A target with two cameras: cam-1 keeps the contract, cam-2 holds a line with an extra field. */
async function startTarget (t: Test) {
  return startFakeTarget(t, (request, response) => {
    if (request.headers.authorization !== `Bearer ${TOKEN}`) {
      send(response, 403, '<html>Forbidden</html>', { 'content-type': 'text/html', 'x-target': 'yes' })
      return
    }
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const url = request.url as string
      if (request.method === 'POST') send(response, 201, { echo: Buffer.concat(chunks).toString(), type: request.headers['content-type'] })
      else if (url.startsWith('/nvr/v1/cameras/cam-1/counting_lines/line-1')) send(response, 200, ok(GOOD), { etag: '"1"' })
      else if (url.startsWith('/nvr/v1/cameras/cam-1/counting_lines')) send(response, 200, ok([GOOD]))
      else if (url === '/nvr/v1/cameras/cam-2/counting_lines') send(response, 200, ok([BAD]))
      else if (url === '/nvr/v1/cameras/cam-2/counting_lines/line-bad') send(response, 200, ok(BAD))
      // /nvr/v1/slow is never answered.
      else if (url !== '/nvr/v1/slow') send(response, 404, { result: { success: false, httpCode: 404, errorCode: 'CAMERA_NOT_FOUND', errorMessage: 'none' }, content: null })
    })
  })
}

t.test('answers pass through unchanged, with the client\'s own Authorization; violations are logged once per path and counted', async t => {
  const { url, requests } = await startTarget(t)
  const logs = captureLogs()
  // The time-out answered target: only the path never answered meets it (below, on a proxy of its own).
  const proxy = await startMockNvr({ proxy: { target: url, timeout: 30_000 }, logger: logs.logger, logLevel: 'info' })
  t.teardown(() => proxy.close())
  const list = await fetch(`${proxy.url}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH })
  t.equal(list.status, 200)
  t.equal(await list.text(), JSON.stringify(ok([GOOD])), 'the body as the target sent it')
  t.equal(list.headers.get('access-control-allow-origin'), '*', 'mock-nvr\'s CORS, for the browser')
  const retrieved = await fetch(`${proxy.url}/nvr/v1/cameras/cam-1/counting_lines/line-1?x=1`, { headers: AUTH })
  t.equal(retrieved.headers.get('etag'), '"1"')
  t.equal(requests.at(-1)?.url, '/nvr/v1/cameras/cam-1/counting_lines/line-1?x=1', 'the URL as sent')
  t.equal(requests.at(-1)?.headers.authorization, `Bearer ${TOKEN}`)

  const refused = await fetch(`${proxy.url}/nvr/v1/cameras/cam-1/counting_lines`, { headers: { authorization: 'Bearer other' } })
  t.equal(refused.status, 403, 'the target decides who is let in')
  t.equal(refused.headers.get('content-type'), 'text/html')
  t.equal(refused.headers.get('x-target'), null, 'only the headers that matter')
  t.equal(await refused.text(), '<html>Forbidden</html>')
  const posted = await fetch(`${proxy.url}/nvr/v1/cameras/cam-1/counting_lines`, { method: 'POST', headers: { ...AUTH, 'content-type': 'text/plain' }, body: 'hello' })
  t.equal(posted.status, 201)
  t.strictSame(await posted.json(), { echo: 'hello', type: 'text/plain' })

  for (let round = 0; round < 2; round++) {
    t.equal((await fetch(`${proxy.url}/nvr/v1/cameras/cam-2/counting_lines`, { headers: AUTH })).status, 200)
    t.equal((await fetch(`${proxy.url}/nvr/v1/cameras/cam-2/counting_lines/line-bad`, { headers: AUTH })).status, 200)
  }
  const warnings = logs.records.filter(entry => entry.msg.startsWith('the target broke the contract'))
  t.strictSame(warnings.map(entry => [entry.msg, entry.path, entry.problem]), [
    ['the target broke the contract at /nvr/v1/cameras/cam-2/counting_lines', '/content/0/zone', 'is an extra field: a counting line has exactly the ten fields of the spec'],
    ['the target broke the contract at /nvr/v1/cameras/cam-2/counting_lines/line-bad', '/content/zone', 'is an extra field: a counting line has exactly the ten fields of the spec']
  ], 'once per path')
  t.match(await (await fetch(`${proxy.url}/healthz`)).json(), { status: 'ok', contractViolations: 4 })
  const entries = proxy.requests().filter(entry => entry.path.startsWith('/nvr/v1/cameras/cam-2'))
  t.strictSame(entries.map(entry => entry.contractViolations), [1, 1, 1, 1])
  t.equal(proxy.requests()[0]?.contractViolations, 0)
  t.notOk(JSON.stringify(logs.records).includes(TOKEN), 'the token is never logged')

  // A target that never answers meets the time-out, however loaded the machine: no answer can beat it.
  const impatient = await startMockNvr({ proxy: { target: url, timeout: 500 } })
  t.teardown(() => impatient.close())
  const slow = await fetch(`${impatient.url}/nvr/v1/slow`, { headers: AUTH })
  t.equal(slow.status, 504)
  t.match(await slow.json(), { result: { success: false, httpCode: 504, errorCode: 'DEVICE_TIMEOUT', errorMessage: 'The target did not answer: no answer within 500 ms.' } })
})

t.test('only a read is checked: an answer that is not JSON is a violation; other paths, and ids that cannot be decoded, pass unchecked', async t => {
  const { url, requests } = await startFakeTarget(t, (request, response) => {
    if (request.url === '/nvr/v1/cameras/cam-1/counting_lines/line-1') send(response, 200, '<html>login</html>', { 'content-type': 'text/html' })
    else send(response, 200, {})
  })
  const logs = captureLogs()
  const proxy = await startMockNvr({ proxy: { target: url }, logger: logs.logger, logLevel: 'info' })
  t.teardown(() => proxy.close())
  const notJson = await fetch(`${proxy.url}/nvr/v1/cameras/cam-1/counting_lines/line-1`)
  t.equal(notJson.status, 200)
  t.equal(await notJson.text(), '<html>login</html>')
  t.equal(requests.at(-1)?.headers.authorization, undefined, 'a request without Authorization goes on without one')
  t.strictSame(logs.records.filter(entry => entry.msg.startsWith('the target broke the contract')).map(entry => [entry.line, entry.path, entry.problem]), [
    ['line-1', '', 'the body is not JSON (text/html, starting <html>login</html>)']
  ])
  t.equal(proxy.requests().at(-1)?.contractViolations, 1)

  const other = await fetch(`${proxy.url}/nvr/v1/cameras`, { headers: AUTH })
  t.strictSame([other.status, await other.json()], [200, {}])
  t.equal(proxy.requests().at(-1)?.contractViolations, 0, 'no read, nothing checked')
  // Only a raw client sends a fragment; the router reads the path before it, the proxy passes it on as it came.
  const { received } = await exchange(Number(new URL(proxy.url).port), 'GET /nvr/v1/cameras/cam-1/counting_lines/line-2#%E0 HTTP/1.1\r\nhost: a\r\nconnection: close\r\n\r\n', { end: false })
  t.match(received.toString(), /^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\n\{\}$/)
  t.equal(requests.at(-1)?.url, '/nvr/v1/cameras/cam-1/counting_lines/line-2#%E0')
  t.equal(proxy.requests().at(-1)?.contractViolations, 0, 'a line id that cannot be decoded is not checked')
})

t.test('an https:// target is trusted with ca; untrusted, it did not answer (502)', async t => {
  const tls = await makeCertificate()
  const { url } = await startFakeTarget(t, (_request, response) => send(response, 200, ok([GOOD])), tls)
  const target = url.replace('127.0.0.1', 'localhost')
  const trusted = await startMockNvr({ proxy: { target, ca: tls.cert } })
  t.teardown(() => trusted.close())
  const answer = await fetch(`${trusted.url}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH })
  t.strictSame([answer.status, await answer.json()], [200, ok([GOOD])])
  const untrusted = await startMockNvr({ proxy: { target } })
  t.teardown(() => untrusted.close())
  const refused = await fetch(`${untrusted.url}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH })
  t.equal(refused.status, 502)
  t.match(await refused.json(), { result: { success: false, httpCode: 502, errorCode: 'DEVICE_UNREACHABLE', errorMessage: 'The target did not answer: the target\'s certificate is not trusted: it is self-signed: pass --ca FILE with its certificate (or its CA\'s), or --insecure to skip the check.' } })
})

t.test('faults, latency and Prefer apply in front of the target', async t => {
  const { url, requests } = await startTarget(t)
  const proxy = await startMockNvr({ proxy: { target: url }, allowPrefer: true })
  t.teardown(() => proxy.close())
  proxy.injectFault({ status: 503, times: 1 })
  const faulted = await fetch(`${proxy.url}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH })
  t.equal(faulted.status, 503)
  t.equal(requests.length, 0, 'the target was not asked')
  const preferred = await fetch(`${proxy.url}/nvr/v1/cameras/cam-1/counting_lines`, { headers: { ...AUTH, prefer: 'code=500' } })
  t.equal(preferred.status, 500)
  proxy.injectFault({ delay: 50, times: 1 })
  const delayed = await fetch(`${proxy.url}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH })
  t.equal(delayed.status, 200, 'a delay, then the target\'s answer')
  t.equal(proxy.requests().at(-1)?.fault, 'fault-2')
  t.equal(requests.length, 1)
  proxy.injectFault({ drop: true, times: 1 })
  await t.rejects(fetch(`${proxy.url}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH }), 'a dropped connection')
  t.equal(requests.length, 1, 'the target was not asked')
  proxy.injectFault({ malformed: true, times: 1 })
  const cut = await fetch(`${proxy.url}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH })
  const full = await fetch(`${proxy.url}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH })
  const [cutBody, fullBody] = [await cut.text(), await full.text()]
  t.equal(cutBody, fullBody.slice(0, Math.floor(Buffer.byteLength(fullBody) / 2)), 'the target\'s answer, cut in half')
  t.strictSame(proxy.requests().slice(-3).map(entry => [entry.fault, entry.status]), [['fault-3', null], ['fault-4', 200], [null, 200]])
})

t.test('a proxy serves its OpenAPI document, of the paths it answers itself', async t => {
  const { url } = await startTarget(t)
  const proxy = await startMockNvr({ proxy: { target: url } })
  t.teardown(() => proxy.close())
  const answer = await fetch(`${proxy.url}/openapi.json`)
  t.equal(answer.status, 200)
  const document = await answer.json() as { paths: Record<string, unknown> }
  t.strictSame(Object.keys(document.paths), ['/healthz'])
})

t.test('the journal names the camera and line of a proxied request, as it does a served one', async t => {
  const { url } = await startTarget(t)
  const proxy = await startMockNvr({ proxy: { target: url } })
  t.teardown(() => proxy.close())
  for (const path of ['cameras/cam-1/counting_lines', 'cameras/cam-1/counting_lines/line-1/', 'cameras/cam%2F1/counting_lines?x=1', 'cameras', 'slower/than/that']) {
    await fetch(`${proxy.url}/nvr/v1/${path}`, { headers: AUTH })
  }
  t.strictSame(proxy.requests().map(entry => entry.params), [
    { id: 'cam-1' },
    { id: 'cam-1', line_id: 'line-1' },
    { id: 'cam/1' },
    {},
    {}
  ])
})

t.test('a fault scoped to a route or a camera applies in front of the target', async t => {
  const { url, requests } = await startTarget(t)
  const proxy = await startMockNvr({ proxy: { target: url } })
  t.teardown(() => proxy.close())
  proxy.injectFault({ status: 503, route: 'retrieve', camera: 'cam-1' })
  t.equal((await fetch(`${proxy.url}/nvr/v1/cameras/cam-1/counting_lines/line-1`, { headers: AUTH })).status, 503)
  t.equal((await fetch(`${proxy.url}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH })).status, 200, 'another route')
  t.equal((await fetch(`${proxy.url}/nvr/v1/cameras/cam-2/counting_lines/line-bad`, { headers: AUTH })).status, 200, 'another camera')
  t.equal(requests.length, 2, 'the faulted request never reached the device')
  t.match(proxy.requests()[0], { params: { id: 'cam-1', line_id: 'line-1' }, fault: 'fault-1', status: 503 })
})

t.test('--record: the valid lists and lines that passed are written at stop, atomically, merged with the file', async t => {
  const { url } = await startTarget(t)
  const folder = t.testdir({})
  const file = join(folder, 'recorded.json')
  await writeFile(file, JSON.stringify({ cameras: [{ id: 'cam-old' }, { id: 'cam-1' }], counting_lines: [line({ id: 'old', camera_id: 'cam-old' }), line({ id: 'stale', camera_id: 'cam-1' })] }))
  const proxy = await startMockNvr({ proxy: { target: url, record: file } })
  await fetch(`${proxy.url}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH })
  await fetch(`${proxy.url}/nvr/v1/cameras/cam-2/counting_lines`, { headers: AUTH })
  await fetch(`${proxy.url}/nvr/v1/cameras/cam-1/counting_lines/line-1`, { headers: AUTH })
  await fetch(`${proxy.url}/nvr/v1/cameras/cam-1/counting_lines`, { headers: { authorization: 'Bearer other' } })
  t.notMatch(await readFile(file, 'utf8'), 'line-1', 'nothing written before the stop')
  await proxy.close()
  t.strictSame(JSON.parse(await readFile(file, 'utf8')), {
    cameras: [{ id: 'cam-old' }, { id: 'cam-1' }],
    counting_lines: [line({ id: 'old', camera_id: 'cam-old' }), GOOD]
  }, 'cam-1\'s recorded list replaces its lines; cam-2, invalid, is not written')
  t.strictSame(await readdir(folder), ['recorded.json'])

  const lineOnly = join(folder, 'line-only.json')
  const again = await startMockNvr({ proxy: { target: url, record: lineOnly } })
  await fetch(`${again.url}/nvr/v1/cameras/cam-1/counting_lines/line-1`, { headers: AUTH })
  await again.close()
  t.strictSame(JSON.parse(await readFile(lineOnly, 'utf8')), { cameras: [{ id: 'cam-1' }], counting_lines: [GOOD] })

  const untouched = join(folder, 'untouched.json')
  const idle = await startMockNvr({ proxy: { target: url, record: untouched } })
  await idle.close()
  t.strictSame((await readdir(folder)).sort(), ['line-only.json', 'recorded.json'], 'nothing passed, nothing written')
})

t.test('a recording that cannot be written is refused at the start, or logged at the stop, which goes on', async t => {
  const { url } = await startTarget(t)
  const folder = t.testdir({ 'broken.json': '{', 'kept.json': '{"cameras":[]}' })
  await t.rejects(startMockNvr({ proxy: { target: url, record: join(folder, 'broken.json') } }), { name: 'FixtureError', message: /broken\.json: is not valid JSON at line 1, column 2/ }, 'a file that cannot be merged with')
  await t.rejects(startMockNvr({ proxy: { target: url, record: folder } }), { name: 'FixtureWriteError', message: `${folder} is a folder: give a file name` })
  const logs = captureLogs()
  const proxy = await startMockNvr({ proxy: { target: url, record: join(folder, 'kept.json') }, logger: logs.logger, logLevel: 'info' })
  await fetch(`${proxy.url}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH })
  await writeFile(join(folder, 'kept.json'), '{')
  await proxy.close()
  t.match(JSON.stringify(logs.records), 'the recording was not written: Invalid fixtures')
  t.equal(await readFile(join(folder, 'kept.json'), 'utf8'), '{')
})

t.test('proxy options that cannot work are refused', async t => {
  await t.rejects(startMockNvr({ proxy: { target: 'nvr.local' } }), new OptionsError('option proxy.target is invalid: the target must be a URL like https://nvr.local:8443'))
  await t.rejects(startMockNvr({ proxy: { target: 'https://nvr.local', ca: 'PEM' } }), new OptionsError('option proxy.ca is invalid: the CA must hold a PEM certificate (-----BEGIN CERTIFICATE-----)'))
  await t.rejects(startMockNvr({ proxy: { target: 'https://nvr.local', timeout: 0 } }), new OptionsError('option proxy.timeout is invalid: timeout must be a whole number of at least 1'))
  await t.rejects(startMockNvr({ proxy: { target: 'https://nvr.local', timeout: 3e9 } }), new OptionsError('option proxy.timeout is invalid: timeout must be at most 2147483647 milliseconds'))
  await t.rejects(startMockNvr({ proxy: { target: 'http://nvr.local' }, tokens: ['a'] }), new OptionsError('option tokens does not apply to a proxy: the target\'s data and tokens are used'))
  await t.rejects(startMockNvr({ proxy: { target: 'http://nvr.local' }, data: {} }), { message: /option data does not apply/ })
})
