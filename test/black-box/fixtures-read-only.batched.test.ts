import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { readdir, readFile, stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import t from 'tap'
import { BUNDLED_FIXTURES, loadFixtures } from '../../src/data/fixtures.js'
import { startMockNvr } from '../../src/index.js'
import { spyOnBuiltin } from '../helpers/builtin-spy.js'
import { AUTH, line } from '../helpers/app.js'
import { captureLogs, saveFile } from '../helpers/log-capture.js'
import { exchange, parseAnswers } from '../helpers/raw-http.js'

/** Name, content hash, modification time and mode of every file in a folder. */
async function snapshot (dir: string) {
  const names = (await readdir(dir)).sort()
  return Promise.all(names.map(async name => {
    const file = join(dir, name)
    const { mtimeMs, mode, size } = await stat(file)
    return { name, sha256: createHash('sha256').update(await readFile(file)).digest('hex'), mtimeMs, mode, size }
  }))
}

/** Ids and paths that would mean a file if anything treated them as one. */
const PATH_LIKE_IDS = [
  '..%2F..%2Fetc%2Fpasswd', '%2e%2e', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', '..', '..%5C..%5Cwindows%5Cwin.ini', '%2Fetc%2Fpasswd',
  'site.json', '..%2Fsite.json', 'fixtures%2Fsite.json', 'file%3A%2F%2F%2Fetc%2Fpasswd', '%00', 'site.json%00'
]

/** Requests of every kind, including writes and path-like ids, over a real socket. */
function everyKindOfRequest (port: number) {
  const authorization = `Authorization: ${AUTH.authorization}\r\n`
  const requests = [
    ...PATH_LIKE_IDS.flatMap(id => [`/nvr/v1/cameras/${id}/counting_lines`, `/nvr/v1/cameras/cam-1/counting_lines/${id}`]).map(path => `GET ${path} HTTP/1.1\r\nHost: x\r\n${authorization}\r\n`),
    ...['/../../etc/passwd', '/site.json', '/fixtures/site.json', '/nvr/v1/../../site.json'].map(path => `GET ${path} HTTP/1.1\r\nHost: x\r\n${authorization}\r\n`),
    ...['PUT', 'POST', 'PATCH', 'DELETE'].map(method => `${method} /nvr/v1/cameras/cam-1/counting_lines HTTP/1.1\r\nHost: x\r\n${authorization}Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`),
    `GET /nvr/v1/cameras/cam-1/counting_lines/line-1 HTTP/1.1\r\nHost: x\r\n${authorization}\r\n`
  ]
  return Promise.all(requests.map(async request => parseAnswers((await exchange(port, request)).received)[0]))
}

t.test('nothing the server does changes a fixture file: start, requests, a watch reload, close', async t => {
  const dir = t.testdir({ 'site.json': JSON.stringify({ cameras: [{ id: 'cam-empty' }], counting_lines: [line()] }, null, 2) })
  const before = await snapshot(dir)
  const logs = captureLogs()
  const nvr = await startMockNvr({ fixtures: dir, watch: true, logger: logs.logger })
  const answers = await everyKindOfRequest(nvr.port)
  t.equal(answers.at(-1)?.status, 200, 'the known line is served')
  t.same(await snapshot(dir), before, 'unchanged after start and requests')

  const reloaded = logs.next(record => record.msg.startsWith('fixtures reloaded'))
  await saveFile(join(dir, 'yard.json'), JSON.stringify({ counting_lines: [line({ camera_id: 'cam-yard' })] }))
  await reloaded
  const withNewFile = await snapshot(dir)
  t.same(withNewFile.filter(file => file.name === 'site.json'), before, 'unchanged after a reload')
  await nvr.close()
  t.same(await snapshot(dir), withNewFile, 'unchanged after close, and no file added')
})

t.test('the bundled fixtures stay as shipped too', async t => {
  const before = await snapshot(BUNDLED_FIXTURES)
  const nvr = await startMockNvr({ watch: true })
  await everyKindOfRequest(nvr.port)
  await nvr.close()
  t.same(await snapshot(BUNDLED_FIXTURES), before)
})

t.test('ids and paths that look like files are lookups: 404, and no file is touched', async t => {
  const dir = t.testdir({ 'site.json': JSON.stringify({ counting_lines: [line()] }) })
  const nvr = await startMockNvr({ fixtures: dir })
  t.teardown(nvr.close)
  const fsCalls = [
    ...['open', 'openSync', 'readFile', 'readFileSync', 'createReadStream', 'stat', 'statSync', 'lstat', 'readdir', 'readdirSync', 'existsSync', 'access']
      .map(name => spyOnBuiltin(t, fs, name as keyof typeof fs & string)),
    ...['open', 'readFile', 'stat', 'lstat', 'readdir', 'access']
      .map(name => spyOnBuiltin(t, fs.promises, name as keyof typeof fs.promises & string))
  ]
  const answers = await everyKindOfRequest(nvr.port)
  const lookups = answers.slice(0, 2 * PATH_LIKE_IDS.length + 4)
  t.ok(lookups.every(answer => answer?.status === 404), 'every path-like id and path is not found')
  t.ok(answers.slice(-5, -1).every(answer => answer?.status === 405), 'writes are refused')
  t.equal(answers.at(-1)?.status, 200, 'the known line is served')
  t.notOk(answers.some(answer => answer?.body.includes('root:')), 'no file content is answered')
  t.equal(fsCalls.flat().length, 0, 'no file was opened, read or even looked at')
  await loadFixtures(dir)
  t.ok(fsCalls.flat().length > 0, 'while a fixture load is seen by the same spies')
})

t.test('the API page serves its own files and nothing above them: 404, or 403 for a path the file server calls malicious', async t => {
  const nvr = await startMockNvr({ data: { counting_lines: [line()] } })
  t.teardown(nvr.close)
  const opened = spyOnBuiltin(t, fs, 'createReadStream')
  for (const path of ['../../package.json', '..%2f..%2fpackage.json', '%2e%2e/%2e%2e/package.json', '..%5c..%5cpackage.json', '/etc/passwd', '%2fetc%2fpasswd']) {
    const answer = await fetch(`${nvr.url}/docs/static/${path}`)
    const body = await answer.text()
    t.ok(answer.status === 404 || answer.status === 403, `${path}: refused (${answer.status})`)
    t.notOk(body.includes('"name": "mock-nvr"') || body.includes('root:'), `${path}: no file content`)
  }
  const asset = await fetch(`${nvr.url}/docs/static/swagger-ui.css`)
  t.equal(asset.status, 200, 'its own files are served')
  await asset.text()
  const staticFolder = join(dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui')), 'static')
  t.ok(opened.length > 0 && opened.every(([file]) => String(file).startsWith(staticFolder)), 'only files of its static folder were opened')
})
