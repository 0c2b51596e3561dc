import { get, type IncomingHttpHeaders } from 'node:http'
import { gzipSync } from 'node:zlib'
import t, { type Test } from 'tap'
import { generate } from 'selfsigned'
import { startMockNvr } from '../../src/index.js'
import { line } from '../helpers/app.js'
import { ok, startFakeTarget } from '../helpers/fake-target.js'
import { captureLogs } from '../helpers/log-capture.js'
import { proxiedTarget, type ReverseProxy } from '../helpers/proxied-target.js'

const TOKEN = 'proxy-transport-5e0'
const AUTH = { authorization: `Bearer ${TOKEN}` }
const DATA = { cameras: [{ id: 'cam-1' }], counting_lines: [line(), line({ id: 'line-2', name: 'Gate' })] }
const LIST = '/nvr/v1/cameras/cam-1/counting_lines'

/** A GET whose body is read as it comes off the wire, undecoded, with its headers. */
function rawGet (url: string, headers: Record<string, string>): Promise<{ status: number, headers: IncomingHttpHeaders, body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': 'gzip, deflate, br', ...headers } }, response => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode as number, headers: response.headers, body: Buffer.concat(chunks) }))
    }).on('error', reject)
  })
}

async function proxyTo (t: Test, target: string, options: { ca?: string } = {}) {
  const logs = captureLogs()
  const proxy = await startMockNvr({ proxy: { target, ...options }, logger: logs.logger, logLevel: 'info', adminToken: 'admin-secret-1' })
  t.teardown(() => proxy.close())
  return { proxy, logs }
}

const TRANSPORTS: Array<[string, ReverseProxy]> = [
  ['gzip', { encoding: 'gzip' }],
  ['deflate, chunked', { encoding: 'deflate', chunked: true }],
  ['br, under a base path', { encoding: 'br', basePath: '/api/device' }]
]

for (const [name, transport] of TRANSPORTS) {
  t.test(`the proxy passes a target's answers on decoded, as identity with their true length (${name})`, async t => {
    const target = await proxiedTarget(t, DATA, TOKEN, transport)
    const { proxy, logs } = await proxyTo(t, target.url)
    const list = await rawGet(`${proxy.url}${LIST}`, AUTH)
    t.equal(list.status, 200)
    t.equal(list.headers['content-encoding'], undefined, 'no encoding announced')
    t.equal(list.headers['content-length'], String(list.body.length), 'the length of the bytes sent')
    t.strictSame(JSON.parse(list.body.toString()), ok(DATA.counting_lines))
    const refused = await rawGet(`${proxy.url}${LIST}/line-2`, { authorization: 'Bearer not-it' })
    t.equal(refused.status, 401, 'the target\'s own token check')
    t.match(JSON.parse(refused.body.toString()), { result: { success: false, httpCode: 401, errorCode: 'TOKEN_REFUSED' } })
    t.equal(target.seen.at(-1)?.url, `${transport.basePath ?? ''}${LIST}/line-2`)
    t.equal(proxy.requests()[0]?.contractViolations, 0)
    t.strictSame(logs.records.filter(record => record.level >= 40), [], 'nothing to warn about')
  })
}

t.test('the proxy warns once per path where the target departs from mock-nvr where the seed does not rule', async t => {
  const target = await proxiedTarget(t, DATA, TOKEN, { encoding: 'gzip', bom: true, extraMembers: { result: { requestId: 'r-1' } } })
  const { proxy, logs } = await proxyTo(t, target.url)
  for (let round = 0; round < 2; round++) {
    const answer = await rawGet(`${proxy.url}${LIST}`, AUTH)
    t.equal(answer.status, 200)
    t.ok(answer.body.toString().startsWith('\ufeff{"result":{"success":true,"httpCode":200,"requestId":"r-1"}'), 'passed on as the target sent it, decoded')
  }
  const warnings = logs.records.filter(record => record.level === 40)
  t.strictSame(warnings.map(record => [record.msg, record.departures]), [[
    `the target's answer departs from mock-nvr's where the seed does not rule at ${LIST}`,
    ['a byte-order mark before the JSON', 'envelope members the seed does not show: result.requestId']
  ]])
  t.equal(proxy.requests().at(-1)?.contractViolations, 0, 'not a violation')
})

t.test('a strong ETag of a compressed answer is passed on weak: the client gets other bytes than the target sent', async t => {
  const body = JSON.stringify(ok(DATA.counting_lines))
  const { url } = await startFakeTarget(t, (request, response) => {
    const compressed = request.url?.includes('gzip') === true
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      etag: request.url?.includes('weak') === true ? 'W/"w-1"' : '"s-1"',
      ...(compressed ? { 'content-encoding': 'gzip' } : request.url?.includes('coded') === true ? { 'content-encoding': 'Identity' } : {})
    })
    response.end(compressed ? gzipSync(body) : body)
  })
  const { proxy } = await proxyTo(t, url)
  const etagOf = async (camera: string) => (await rawGet(`${proxy.url}/nvr/v1/cameras/${camera}/counting_lines`, AUTH)).headers.etag
  t.equal(await etagOf('gzip'), 'W/"s-1"', 'decoded: weak')
  t.equal(await etagOf('gzip-weak'), 'W/"w-1"', 'weak already: as it was')
  t.equal(await etagOf('identity'), '"s-1"', 'sent as is: as the target sent it')
  t.equal(await etagOf('identity-coded'), '"s-1"', 'in the identity coding, named: as the target sent it')
})

t.test('an answer the proxy cannot decode, or that decodes past the limit, is a 502: never passed on corrupted', async t => {
  const { url } = await startFakeTarget(t, (request, response) => {
    const bomb = request.url?.endsWith('bomb/counting_lines') === true
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-encoding': bomb ? 'gzip' : 'zstd' })
    // 32 MiB of zeros, 32 KiB on the wire: twice the limit once decoded.
    response.end(bomb ? gzipSync(Buffer.alloc(32 * 1024 * 1024)) : 'x')
  })
  const { proxy } = await proxyTo(t, url)
  const unknown = await rawGet(`${proxy.url}/nvr/v1/cameras/zstd/counting_lines`, AUTH)
  t.equal(unknown.status, 502)
  t.match(JSON.parse(unknown.body.toString()), { result: { errorCode: 'DEVICE_UNREACHABLE', errorMessage: 'The target did not answer: the answer cannot be read: its Content-Encoding "zstd" is not one this client reads (gzip, deflate, br).' } })
  const bomb = await rawGet(`${proxy.url}/nvr/v1/cameras/bomb/counting_lines`, AUTH)
  t.equal(bomb.status, 502)
  t.match(JSON.parse(bomb.body.toString()), { result: { errorMessage: 'The target did not answer: the answer is larger than 16 MiB decoded (gzip), the most read.' } })
})

t.test('a target whose certificate is for other names: a 502 that names them', async t => {
  const { cert, private: key } = await generate([{ name: 'commonName', value: 'nvr.local' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'nvr.local' }, { type: 7, ip: '10.0.0.5' }] }]
  })
  const target = await proxiedTarget(t, DATA, TOKEN, { tls: { cert, key } })
  const { proxy } = await proxyTo(t, target.url, { ca: cert })
  const answer = await rawGet(`${proxy.url}${LIST}`, AUTH)
  t.equal(answer.status, 502)
  t.match(JSON.parse(answer.body.toString()).result.errorMessage, /^The target did not answer: the target's certificate is for nvr\.local, 10\.0\.0\.5, not 127\.0\.0\.1: give --target with a name it holds/)
})

t.test('while proxying, data cannot be uploaded: 409 from the admin API and the handle, and nothing is served past the target', async t => {
  const target = await proxiedTarget(t, DATA, TOKEN, {})
  const { proxy } = await proxyTo(t, target.url)
  const uploaded = { cameras: [{ id: 'cam-local' }], counting_lines: [line({ camera_id: 'cam-local' })] }
  const put = await fetch(`${proxy.url}/__admin/data`, { method: 'PUT', headers: { authorization: 'Bearer admin-secret-1', 'content-type': 'application/json' }, body: JSON.stringify(uploaded) })
  t.equal(put.status, 409)
  t.strictSame(await put.json(), {
    result: { success: false, httpCode: 409, errorCode: 'DATA_FROM_DEVICE', errorMessage: `Data cannot be replaced while proxying ${target.url}: the target's own data answers /nvr/v1, behind its own token check.` },
    content: null
  })
  t.throws(() => proxy.use(uploaded), { name: 'ApiError', statusCode: 409, code: 'DATA_FROM_DEVICE' })
  const before = target.seen.length
  const read = await fetch(`${proxy.url}/nvr/v1/cameras/cam-local/counting_lines`, { headers: { authorization: 'Bearer anything' } })
  t.equal(read.status, 401, 'the target refuses the token; no local data answers')
  t.equal(target.seen.length, before + 1, 'the target was asked')
  const reset = await fetch(`${proxy.url}/__admin/data`, { method: 'DELETE', headers: { authorization: 'Bearer admin-secret-1' } })
  t.equal(reset.status, 200, 'back to no local data is allowed')
})
