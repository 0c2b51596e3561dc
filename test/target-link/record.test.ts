import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { RecordRefusedError, recordTarget, startMockNvr } from '../../src/index.js'
import { runTargetCommand } from '../../src/cli/target-commands.js'
import { line } from '../helpers/app.js'
import { ok, send, startFakeTarget } from '../helpers/fake-target.js'
import { runCli } from '../helpers/cli-process.js'

const TOKEN = 'record-token-91c'
const DATA = {
  cameras: [{ id: 'cam one/ä' }, { id: 'cam-empty' }, { id: 'cam-2' }],
  counting_lines: [
    line({ id: 'line-b', camera_id: 'cam one/ä', max_age: 0 }),
    line({ id: 'line-a', camera_id: 'cam one/ä', name: 'Quote " and \\ and ü' }),
    line({ id: 'line-9', camera_id: 'cam-2' })
  ]
}

async function run (argv: string[]) {
  let stdout = ''
  let stderr = ''
  const code = await runTargetCommand('record', argv, { stdout: { write: (text: string) => { stdout += text } }, stderr: { write: (text: string) => { stderr += text } } })
  return { code, stdout, stderr }
}

t.test('record, then serve the file: the same bytes for every list and line', async t => {
  const target = await startMockNvr({ data: DATA, tokens: [TOKEN] })
  t.teardown(() => target.close())
  const folder = t.testdir({})
  const out = join(folder, 'target.json')
  const cameras = ['cam one/ä', 'cam-empty', 'cam-2']
  const result = await run(['--target', target.url, '--token', TOKEN, ...cameras.flatMap(id => ['--camera', id]), '--out', out])
  t.equal(result.code, 0, result.stderr)
  t.equal(result.stdout, `recorded 3 cameras and 3 counting lines into ${out}\n`)
  t.equal(result.stderr, '')
  const text = await readFile(out, 'utf8')
  t.notMatch(text, TOKEN)
  t.strictSame(JSON.parse(text), DATA, 'every camera, lines in the target\'s order, as sent')
  t.strictSame(await readdir(folder), ['target.json'], 'no temporary file left')

  const served = await startMockNvr({ fixtures: out, tokens: [TOKEN] })
  t.teardown(() => served.close())
  const paths = [
    ...cameras.map(id => `/nvr/v1/cameras/${encodeURIComponent(id)}/counting_lines`),
    ...DATA.counting_lines.map(one => `/nvr/v1/cameras/${encodeURIComponent(one.camera_id)}/counting_lines/${one.id}`)
  ]
  for (const path of paths) {
    const [original, replayed] = await Promise.all([target.url, served.url].map(async base => Buffer.from(await (await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } })).arrayBuffer())))
    t.ok((original as Buffer).equals(replayed as Buffer), `${path} answers the same bytes`)
  }

  const exists = await run(['--target', target.url, '--token', TOKEN, '--camera', 'cam-2', '--out', out])
  t.equal(exists.code, 1)
  t.equal(exists.stderr, `mock-nvr: ${out} exists already: pass --force to replace it: nothing written\n`)
  t.equal(await readFile(out, 'utf8'), text, 'the existing file is kept')
  const json = await run(['--target', target.url, '--token', TOKEN, '--camera', 'cam-2', '--out', out, '--force', '--json'])
  t.equal(json.code, 0)
  t.strictSame(JSON.parse(json.stdout), { file: out, cameras: 1, countingLines: 1, reformatted: [], departures: [] })
  t.strictSame(JSON.parse(await readFile(out, 'utf8')), { cameras: [{ id: 'cam-2' }], counting_lines: [DATA.counting_lines[2]] })
  t.strictSame(await readdir(folder), ['target.json'])
})

t.test('recordTarget returns the data; a target that breaks the contract in one camera gives no data at all', async t => {
  const { url } = await startFakeTarget(t, (request, response) => {
    if (request.url === '/nvr/v1/cameras/good/counting_lines') send(response, 200, ok([line({ camera_id: 'good' })]))
    else if (request.url === '/nvr/v1/cameras/good/counting_lines/line-1') send(response, 200, ok(line({ camera_id: 'good' })))
    else if (request.url === '/nvr/v1/cameras/gone/counting_lines') send(response, 404, '')
    else send(response, 200, ok([{ ...line({ camera_id: 'bad' }), extra: 1 }]))
  })
  t.strictSame(await recordTarget({ target: url, token: TOKEN, cameras: ['good'] }), { cameras: [{ id: 'good' }], counting_lines: [line({ camera_id: 'good' })] })
  const refusal = await recordTarget({ target: url, token: TOKEN, cameras: ['good', 'bad'] }).catch(error => error as RecordRefusedError)
  t.ok(refusal instanceof RecordRefusedError)
  t.equal((refusal as RecordRefusedError).message, 'the target breaks the contract (2 violations): nothing recorded')
  t.match((refusal as RecordRefusedError).report.violations, [{ camera: 'bad', path: '/content/0/extra' }])
  await t.rejects(recordTarget({ target: url, token: TOKEN, cameras: ['gone'] }), { name: 'RecordRefusedError', message: 'the target breaks the contract (1 violation): nothing recorded' })

  const folder = t.testdir({})
  const out = join(folder, 'target.json')
  const refused = await run(['--target', url, '--token', TOKEN, '--camera', 'good', '--camera', 'bad', '--out', out])
  t.equal(refused.code, 1)
  t.match(refused.stdout, `mock-nvr record ${url}\n`)
  t.match(refused.stdout, 'Contract: 2 violations')
  t.notMatch(refused.stdout, 'Unspecified behaviour', 'record compares nothing with mock-nvr')
  t.match(refused.stdout, /bad\s+line-1\s+GET \/nvr\/v1\/cameras\/bad\/counting_lines\s+\/content\/0\/extra/)
  t.match(refused.stderr, `the target breaks the contract (2 violations): nothing recorded; ${out} not written`)
  t.strictSame(await readdir(folder), [], 'nothing written')
  const refusedJson = await run(['--target', url, '--token', TOKEN, '--camera', 'bad', '--out', out, '--json'])
  t.equal(JSON.parse(refusedJson.stdout).violations.length, 2)

  const missing = await run(['--target', url.replace(/:\d+$/, ':1'), '--token', TOKEN, '--camera', 'good', '--out', out])
  t.equal(missing.code, 1)
  t.match(missing.stderr, /^mock-nvr: http:\/\/127\.0\.0\.1:1: cannot connect to the target: the connection was refused \(ECONNREFUSED\): nothing written\n$/)
})

t.test('a file that could not be written is refused before the target is read', async t => {
  const { url, requests } = await startFakeTarget(t, (_request, response) => send(response, 200, ok([])))
  const folder = t.testdir({ 'kept.json': 'kept' })
  const cases: Array<[string[], string]> = [
    [['--out', join(folder, 'kept.json')], `${join(folder, 'kept.json')} exists already: pass --force to replace it`],
    [['--out', join(folder, 'none', 'x.json')], `${join(folder, 'none', 'x.json')} cannot be written: its folder does not exist`],
    [['--out', join(folder, 'kept.json', 'x.json')], `${join(folder, 'kept.json', 'x.json')} cannot be written: its folder does not exist`],
    [['--out', folder, '--force'], `${folder} is a folder: give a file name`]
  ]
  for (const [flags, message] of cases) {
    const result = await run(['--target', url, '--token', TOKEN, '--camera', 'c', ...flags])
    t.equal(result.code, 1)
    t.equal(result.stderr, `mock-nvr: ${message}: nothing written\n`)
  }
  t.equal(requests.length, 0, 'the target was not asked')
  t.equal(await readFile(join(folder, 'kept.json'), 'utf8'), 'kept')
})

t.test('a target that formats its answers otherwise is recorded, with a note that the bytes will differ', async t => {
  const { max_age: maxAge, ...rest } = line({ camera_id: 'c' })
  const reordered = { max_age: maxAge, ...rest }
  const { url } = await startFakeTarget(t, (request, response) => {
    if (request.url === '/nvr/v1/cameras/c/counting_lines') send(response, 200, JSON.stringify(ok([reordered]), null, 1))
    else send(response, 200, ok(reordered))
  })
  const out = join(t.testdir({}), 'c.json')
  const result = await run(['--target', url, '--token', TOKEN, '--camera', 'c', '--out', out])
  t.equal(result.code, 0)
  t.equal(result.stderr, 'mock-nvr: note: camera "c": the target formats its answers otherwise (key order, spacing or number form); mock-nvr serves the same JSON, in its own bytes\n')
  t.equal(Object.keys(JSON.parse(await readFile(out, 'utf8')).counting_lines[0])[0], 'max_age', 'kept exactly as the target sent it')
})

t.test('Ctrl-C while recording leaves no file, and the CLI runs record from argv', async t => {
  const { url, requests } = await startFakeTarget(t, () => {})
  const folder = t.testdir({})
  const out = join(folder, 'target.json')
  const cli = runCli(['record', '--target', url, '--token', TOKEN, '--camera', 'c', '--out', out], {}, 'from source')
  while (requests.length === 0) await new Promise(resolve => setTimeout(resolve, 20))
  cli.child.kill('SIGINT')
  t.equal(await cli.exit, 1)
  t.equal(cli.stderr(), 'mock-nvr: stopped before the run was complete: nothing written\n')
  t.strictSame(await readdir(folder), [])
  await writeFile(out, 'kept')
})
