import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import t from 'tap'
import { generate } from 'selfsigned'
import { TargetLinkError, recordTarget, verifyTarget } from '../../src/index.js'
import { recordWithNotes } from '../../src/target-link/record-target.js'
import { renderReport } from '../../src/target-link/report-text.js'
import { line } from '../helpers/app.js'
import { ok, send, startFakeTarget } from '../helpers/fake-target.js'
import { proxiedTarget, type ReverseProxy } from '../helpers/proxied-target.js'
import { runCommand } from '../helpers/cli-process.js'

const TOKEN = 'transport-token-7f1'
const DATA = {
  cameras: [{ id: 'cam-1' }, { id: 'cam-2' }],
  counting_lines: [line(), line({ id: 'line-2', name: 'Gate' }), line({ id: 'line-9', camera_id: 'cam-2' })]
}
const CAMERAS = ['cam-1', 'cam-2']

const TRANSPORTS: Array<[string, ReverseProxy]> = [
  ['gzip', { encoding: 'gzip' }],
  ['deflate', { encoding: 'deflate' }],
  ['raw deflate', { encoding: 'deflate-raw' }],
  ['br', { encoding: 'br' }],
  ['chunked', { chunked: true }],
  ['gzip, chunked, under a base path', { encoding: 'gzip', chunked: true, basePath: '/api/device' }]
]

for (const [name, proxy] of TRANSPORTS) {
  t.test(`verify and record through a reverse proxy (${name}): no violation, no difference, the data as the target holds it`, async t => {
    const { url, seen, targetRequests } = await proxiedTarget(t, DATA, TOKEN, proxy)
    const report = await verifyTarget({ target: url, token: TOKEN, cameras: CAMERAS })
    t.strictSame(report.violations, [])
    t.strictSame(report.differences, [], 'the unspecified cases answered as mock-nvr answers them, once decoded')
    t.equal(report.probedCamera, 'cam-1')
    t.equal(seen[0]?.headers['accept-encoding'], 'gzip, deflate, br', 'asks for what a browser asks for')
    t.ok(seen.every(request => request.url?.startsWith(`${proxy.basePath ?? ''}/nvr/v1/`)), 'every request under the base path')
    t.ok(targetRequests.length > 20)
    t.strictSame(await recordTarget({ target: url, token: TOKEN, cameras: CAMERAS }), DATA)
  })
}

t.test('envelope members the seed does not show, a byte-order mark and another Content-Type: differences and notes, never violations', async t => {
  const { url } = await proxiedTarget(t, DATA, TOKEN, {
    encoding: 'br',
    bom: true,
    contentType: 'text/plain',
    extraMembers: { top: { meta: { version: 2 } }, result: { requestId: 'r-1', errorCode: '' } }
  })
  const report = await verifyTarget({ target: url, token: TOKEN, cameras: CAMERAS })
  t.strictSame(report.violations, [], 'the lines keep the contract')
  const reads = report.differences.filter(difference => difference.case.includes('answer'))
  const device = { status: 200, headers: { 'content-type': 'text/plain' }, envelope: 'success envelope; members the seed does not show: meta, result.requestId; after a byte-order mark' }
  const mock = { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, envelope: 'success envelope' }
  t.strictSame(reads, [
    { case: 'list answer (and 1 more alike)', request: 'GET /nvr/v1/cameras/cam-1/counting_lines', device, mock },
    { case: 'retrieve answer (and 2 more alike)', request: 'GET /nvr/v1/cameras/cam-1/counting_lines/line-1', device, mock }
  ])
  const wrongToken = report.differences.find(difference => difference.case === 'wrong token')
  t.match(wrongToken?.device, { status: 401, envelope: 'error envelope; members the seed does not show: meta, result.requestId; after a byte-order mark', errorCode: '""', errorMessage: 'a string' })
  const text = renderReport(report)
  t.match(text, 'list answer (and 1 more alike)')
  t.match(text, [
    '',
    '  Alike in all cases but CORS preflight:',
    '    header        device      mock-nvr',
    '    ------------  ----------  -------------------------------',
    '    content-type  text/plain  application/json; charset=utf-8',
    ''
  ].join('\n'), 'the Content-Type row is shown once, not under every case')
  t.equal(text.match(/content-type {2}text\/plain {2}application/g)?.length, 1)

  const recording = await recordWithNotes({ target: url, token: TOKEN, cameras: CAMERAS })
  t.strictSame(recording.data, DATA, 'recorded all the same')
  t.strictSame(recording.departures, [
    'Content-Type text/plain, not application/json; charset=utf-8',
    'a byte-order mark before the JSON',
    'envelope members the seed does not show: meta, result.requestId'
  ])
})

t.test('a body that cannot be decoded, or decodes past the limit, is a violation of that request and never read whole', async t => {
  // 8 MiB of zeros: 8 KiB on the wire.
  const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024))
  const { url } = await startFakeTarget(t, (request, response) => {
    const camera = /cameras\/([^/]+)\//.exec(request.url as string)?.[1]
    const headers = (encoding: string) => ({ 'content-type': 'application/json; charset=utf-8', 'content-encoding': encoding })
    if (camera === 'bomb') {
      response.writeHead(200, headers('gzip'))
      response.end(bomb)
    } else if (camera === 'compress') {
      response.writeHead(200, headers('compress'))
      response.end('x')
    } else if (camera === 'corrupt') {
      response.writeHead(200, headers('gzip'))
      response.end(gzipSync(JSON.stringify(ok([]))).subarray(0, 12))
    } else if (camera === 'twice') {
      response.writeHead(200, headers('deflate, gzip'))
      response.end(gzipSync(gzipSync('x')))
    } else send(response, 200, ok([]))
  })
  const { violations } = await verifyTarget({ target: url, token: TOKEN, cameras: ['bomb', 'compress', 'corrupt', 'twice', 'fine'], maxBodyBytes: 1024 * 1024 })
  t.strictSame(violations.map(({ camera, problem }) => [camera, problem]), [
    ['bomb', 'no answer: the answer is larger than 1 MiB decoded (gzip), the most read'],
    ['compress', 'no answer: the answer cannot be read: its Content-Encoding "compress" is not one this client reads (gzip, deflate, br)'],
    ['corrupt', 'no answer: the answer cannot be read: its body is not valid gzip (unexpected end of file)'],
    ['twice', 'no answer: the answer cannot be read: its body is not valid deflate (invalid block type)']
  ])
})

t.test('a certificate for other names: the names it holds, and what to do; verify as a command says it in one line', async t => {
  const { cert, private: key } = await generate([{ name: 'commonName', value: 'nvr.local' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'nvr.local' }, { type: 7, ip: '10.0.0.5' }] }]
  })
  const { url } = await proxiedTarget(t, DATA, TOKEN, { tls: { cert, key }, encoding: 'gzip' })
  const expected = `${url}: the target's certificate is for nvr.local, 10.0.0.5, not 127.0.0.1: give --target with a name it holds (and --ca FILE if it is not trusted here), or --insecure to skip the check`
  await t.rejects(verifyTarget({ target: url, token: TOKEN, cameras: CAMERAS, ca: cert }), new TargetLinkError(expected))
  const insecure = await verifyTarget({ target: url, token: TOKEN, cameras: CAMERAS, insecure: true })
  t.strictSame([insecure.violations, insecure.differences], [[], []], '--insecure reads it, decoded')

  const dir = t.testdir({ 'nvr.pem': cert })
  const run = await runCommand(['verify', '--target', url, '--token', TOKEN, '--camera', 'cam-1', '--ca', join(dir, 'nvr.pem')])
  t.equal(run.code, 1)
  t.equal(run.stderr, `mock-nvr: ${expected}\n`)
  t.equal(run.stdout, '')
  t.notMatch(await readFile(join(dir, 'nvr.pem'), 'utf8'), TOKEN)
})

t.test('an error answer to a read says what the target said; a read with no Content-Type is one difference of its own', async t => {
  const { url } = await startFakeTarget(t, (request, response) => {
    const path = request.url as string
    if (path.includes('/gone/')) send(response, 404, { result: { success: false, httpCode: 404, errorCode: 'GONE', errorMessage: 'Camera gone' }, content: null })
    else if (path.includes('/odd/')) send(response, 500, [])
    else {
      // No Content-Type at all.
      response.writeHead(200)
      response.end(JSON.stringify(ok(path.endsWith('/line-1') ? line({ camera_id: 'plain' }) : [line({ camera_id: 'plain' })])))
    }
  })
  const report = await verifyTarget({ target: url, token: TOKEN, cameras: ['gone', 'odd', 'plain'] })
  t.strictSame(report.violations.map(({ camera, problem }) => [camera, problem]), [
    ['gone', 'answered 404, not 200: Camera gone'],
    ['odd', 'answered 500, not 200']
  ])
  const reads = report.differences.filter(difference => difference.case.endsWith('answer'))
  t.strictSame(reads.map(({ case: name, device }) => [name, device]), [
    ['list answer', { status: 200, headers: {}, envelope: 'success envelope' }],
    ['retrieve answer', { status: 200, headers: {}, envelope: 'success envelope' }]
  ])
})

t.test('record as a command notes what the seed does not rule on, once each, and lists it in --json', async t => {
  const { url } = await proxiedTarget(t, DATA, TOKEN, { encoding: 'gzip', bom: true })
  const folder = t.testdir({})
  const run = await runCommand(['record', '--target', url, '--token', TOKEN, '--camera', 'cam-1', '--camera', 'cam-2', '--out', join(folder, 'out.json'), '--json'])
  t.equal(run.code, 0)
  const notes = run.stderr.split('\n').filter(note => note.includes('where the seed does not rule'))
  t.strictSame(notes, ['mock-nvr: note: the target\'s answers depart from mock-nvr\'s where the seed does not rule: a byte-order mark before the JSON; the lines are recorded, and mock-nvr answers in its own way'], 'once, for five answers')
  t.match(JSON.parse(run.stdout), { cameras: 2, countingLines: 3, departures: ['a byte-order mark before the JSON'] })
  t.strictSame(JSON.parse(await readFile(join(folder, 'out.json'), 'utf8')), DATA)
})
