import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { parseProxyArgs } from '../../src/cli/proxy-args.js'
import { line } from '../helpers/app.js'
import { ok, send, startFakeTarget } from '../helpers/fake-target.js'
import { printed, runCli, runCommand } from '../helpers/cli-process.js'
import { makeCertificate } from '../helpers/tls.js'

const TOKEN = 'proxy-cli-token-55'

t.test('mock-nvr proxy forwards, takes the server flags, and writes --record at SIGTERM', async t => {
  const { url } = await startFakeTarget(t, (request, response) => {
    if (request.method === 'HEAD') response.writeHead(200, { 'content-type': 'application/json' }).end()
    else if (request.method === 'OPTIONS') send(response, 204, '', { allow: 'GET' })
    else send(response, 200, ok([line()]))
  })
  const folder = t.testdir({})
  const file = join(folder, 'rec.json')
  const cli = runCli(['proxy', '--port', '0', '--target', url, `--record=${file}`, '--latency', '1', '--insecure', '--log-level', 'info'], {}, 'from source')
  const base = await cli.ready
  const answer = await fetch(`${base}/nvr/v1/cameras/cam-1/counting_lines`, { headers: { authorization: `Bearer ${TOKEN}` } })
  t.equal(answer.status, 200)
  const head = await fetch(`${base}/nvr/v1/cameras/cam-1/counting_lines`, { method: 'HEAD' })
  t.equal(head.status, 200)
  const options = await fetch(`${base}/nvr/v1/cameras/cam-1/counting_lines`, { method: 'OPTIONS' })
  t.equal(options.status, 204)
  t.equal(options.headers.get('allow'), 'GET', 'a plain OPTIONS goes to the target')
  const preflight = await fetch(`${base}/nvr/v1/cameras/cam-1/counting_lines`, { method: 'OPTIONS', headers: { origin: 'http://app.local', 'access-control-request-method': 'GET' } })
  t.equal(preflight.headers.get('access-control-allow-methods'), 'GET, HEAD', 'a preflight is mock-nvr\'s')
  await printed(cli, `forwarding /nvr/v1 to ${url}`)
  cli.child.kill('SIGTERM')
  t.equal(await cli.exit, 0)
  t.match(cli.stdout(), 'the target\'s certificate is not checked')
  t.strictSame(JSON.parse(await readFile(file, 'utf8')), { cameras: [{ id: 'cam-1' }], counting_lines: [line()] })
  t.notMatch(cli.stdout() + cli.stderr(), TOKEN)
})

t.test('mock-nvr proxy: --help and usage errors', async t => {
  const help = await runCommand(['proxy', '--help'])
  t.equal(help.code, 0)
  t.match(help.stdout, 'Usage: mock-nvr proxy --target URL')
  const missing = await runCommand(['proxy', '--port', '0'])
  t.equal(missing.code, 2)
  t.equal(missing.stderr, 'mock-nvr: --target URL is required: the real NVR to forward /nvr/v1 to. Run mock-nvr proxy --help for the flags.\n')
  const badTarget = await runCommand(['proxy', '--target', 'nvr.local'])
  t.equal(badTarget.code, 2)
  t.equal(badTarget.stderr, 'mock-nvr: --target: the target must be a URL like https://nvr.local:8443. Run mock-nvr proxy --help for the flags.\n')
  const noFolder = await runCommand(['proxy', '--port', '0', '--target', 'http://127.0.0.1:1', '--record', join(t.testdir({}), 'none', 'rec.json')])
  t.equal(noFolder.code, 1, 'a recording that could not be written at the stop is refused at the start')
  t.match(noFolder.stderr, /^mock-nvr: cannot start: .*rec\.json cannot be written: its folder does not exist\n$/)
})

t.test('proxy\'s table reads its own flags and the serve flags it takes', async t => {
  const { cert, key } = await makeCertificate()
  const folder = t.testdir({ 'ca.pem': cert, 'key.pem': key })
  t.strictSame(await parseProxyArgs(['--target', 'https://x', '--port', '0', '--timeout=20', '--ca', join(folder, 'ca.pem'), '--insecure', '--record', 'f.json']), {
    help: false,
    version: false,
    proxy: { target: 'https://x', timeout: 20, ca: cert, insecure: true, record: 'f.json' },
    options: { port: 0, logLevel: 'info' }
  })
  await t.rejects(parseProxyArgs(['--target', 'http://x', 'openapi']), { message: "unexpected argument 'openapi'" })
  t.equal((await parseProxyArgs(['-h'])).help, true)
  await t.rejects(parseProxyArgs(['--target']), { message: '--target needs a value: --target URL' })
  await t.rejects(parseProxyArgs(['--target', 'ftp://x']), { message: '--target: the target must be an http:// or https:// URL, not ftp:' })
  await t.rejects(parseProxyArgs(['--target', 'http://x', '--timeout', '0']), { message: "--timeout must be a whole number of milliseconds, at least 1, not '0'" })
  await t.rejects(parseProxyArgs(['--target', 'http://x', '--token', 'a']), { message: '--token does not apply to proxy: the target\'s data and tokens are used' })
  await t.rejects(parseProxyArgs(['--target', 'http://x', '--ca', join(folder, 'none.pem')]), { message: `--ca ${join(folder, 'none.pem')}: no such file or folder` })
  await t.rejects(parseProxyArgs(['--target', 'https://x', '--ca', join(folder, 'key.pem')]), { message: `--ca ${join(folder, 'key.pem')}: holds no PEM certificate (-----BEGIN CERTIFICATE-----)` })
  await t.rejects(parseProxyArgs(['--target', 'http://x', '--ca', join(folder, 'ca.pem')]), { message: '--ca: a CA certificate is only of use with an https:// target' })
})
