import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { startMockNvr } from '../../src/index.js'
import { runTargetCommand } from '../../src/cli/target-commands.js'
import { line } from '../helpers/app.js'
import { mockLikeTarget, startFakeTarget } from '../helpers/fake-target.js'
import { makeCertificate } from '../helpers/tls.js'

const TOKEN = 'cli-token-7f3a'

/** Runs a target command in-process and collects what it writes. */
async function run (argv: string[], isTTY = false) {
  let stdout = ''
  let stderr = ''
  const [command, ...rest] = argv as ['verify' | 'record', ...string[]]
  const code = await runTargetCommand(command, rest, {
    stdout: { write: (text: string) => { stdout += text }, isTTY },
    stderr: { write: (text: string) => { stderr += text } }
  })
  return { code, stdout, stderr }
}

t.test('usage errors name the flag and exit 2', async t => {
  const folder = t.testdir({})
  const cases: Array<[string[], string]> = [
    [['verify'], '--target URL is required'],
    [['verify', '--target', 'http://x', '--camera', 'c'], 'the target\'s token is required: --token TOKEN, --token-file FILE or MOCK_NVR_DEVICE_TOKEN'],
    [['verify', '--target', 'http://x', '--token', 't'], '--camera ID is required (repeatable): the API has no route that lists cameras'],
    [['verify', '--target', 'http://x', '--token', 't', '--camera', ''], '--camera is empty: give it a value'],
    [['record', '--target', 'http://x', '--token', 't', '--camera', 'c'], '--out FILE is required'],
    [['verify', '--target', 'http://x', '--token', 't', '--camera', 'c', '--timeout', '0'], "--timeout must be a whole number of milliseconds, at least 1, not '0'"],
    [['verify', '--target', 'http://x', '--token', 't', '--camera', 'c', '--run-timeout', 'soon'], "--run-timeout must be a whole number of milliseconds, at least 1, not 'soon'"],
    [['verify', '--target', 'x', '--token', 't', '--camera', 'c'], '--target: the target must be a URL like https://nvr.local:8443'],
    [['verify', '--target', 'http://x', '--token', 'a b', '--camera', 'c'], '--token: the token must be one word of visible ASCII characters (no spaces, no letters like ö or é)'],
    [['verify', '--target', 'http://x', '--token', 't', '--camera', 'c', '--ca', join(folder, 'none.pem')], `--ca ${join(folder, 'none.pem')}: no such file or folder`],
    [['verify', '--target', 'http://x', '--token', 't', '--camera', 'c', '--out', 'f'], '--out does not apply to verify: it is a flag of record'],
    [['record', '-x'], 'unknown flag -x'],
    [['verify', 'extra'], "unexpected argument 'extra'"],
    [['verify', '--', '--target'], "unexpected argument '--target'"],
    // In the main command's words (args.ts), never Node's parseArgs wording.
    [['verify', '--target'], '--target needs a value: --target URL'],
    [['record', '--target', 'http://x', '--out'], '--out needs a value: --out FILE'],
    [['verify', '--target', '--token', 't'], '--target needs a value, but --token follows it'],
    [['verify', '--json=1'], '--json takes no value: give --json to turn it on, leave it out for off'],
    [['verify', '--target', 'http://x', '--token', 't', '--camera', 'c', '--run-timeout', '-1'], "--run-timeout must be a whole number of milliseconds, at least 1, not '-1'"],
    [['verify', '--target', 'http://x', '--token', 't', '--camera', 'c', '--junit='], '--junit is empty: give it a value, or leave it out (default: none)'],
    [['verify', '--target', 'https://x', '--token', 't', '--camera', 'c', '--ca='], '--ca is empty: give it a value, or leave it out (default: none)']
  ]
  for (const [argv, message] of cases) {
    const { code, stdout, stderr } = await run(argv)
    t.equal(code, 2, argv.join(' '))
    t.equal(stdout, '')
    t.equal(stderr, `mock-nvr: ${message}. Run mock-nvr ${argv[0] as string} --help for the flags.\n`)
  }
  const ca = join(folder, 'ca.pem')
  await writeFile(ca, (await makeCertificate()).cert)
  t.match((await run(['verify', '--target', 'http://x', '--token', 't', '--camera', 'c', '--ca', ca])).stderr, '--ca: a CA certificate is only of use with an https:// target')
  const key = join(folder, 'key.pem')
  await writeFile(key, (await makeCertificate()).key)
  const notCertificate = await run(['verify', '--target', 'https://x', '--token', 't', '--camera', 'c', '--ca', key])
  t.equal(notCertificate.code, 2, 'a --ca file without a certificate would trust nothing: refused before any request')
  t.equal(notCertificate.stderr, `mock-nvr: --ca ${key}: holds no PEM certificate (-----BEGIN CERTIFICATE-----). Run mock-nvr verify --help for the flags.\n`)
  // A token may start with a dash, and --help wins over anything else given.
  t.match((await run(['verify', '--target', 'x', '--token', '-dash', '--camera', 'c'])).stderr, '--target: the target must be a URL')
  t.equal((await run(['record', '--bogus', '-h'])).code, 0)
})

t.test('--help of each command', async t => {
  for (const command of ['verify', 'record']) {
    const { code, stdout } = await run([command, '--help'])
    t.equal(code, 0)
    t.match(stdout, `Usage: mock-nvr ${command} --target URL --token TOKEN|--token-file FILE --camera ID`)
    t.match(stdout, 'MOCK_NVR_DEVICE_TOKEN')
    t.match(stdout, '--insecure')
  }
})

t.test('verify: the readable report, --json, --junit and --strict, without the token anywhere', async t => {
  const data = { cameras: [{ id: 'cam-1' }], counting_lines: [line()] }
  const { url } = await mockLikeTarget(t, data, TOKEN, (request, response) => {
    if (request.method !== 'PUT') return false
    response.writeHead(403, { 'content-type': 'text/plain' }).end(`no ${TOKEN}`)
    return true
  })
  const folder = t.testdir({})
  const junit = join(folder, 'report.xml')
  const args = ['--target', url, '--token', TOKEN, '--camera', 'cam-1']
  const text = await run(['verify', ...args, '--junit', junit])
  t.equal(text.code, 0, 'differences alone do not fail')
  t.match(text.stdout, `mock-nvr verify ${url}`)
  t.match(text.stdout, 'Contract: no violations')
  t.match(text.stdout, "Unspecified behaviour (asked on camera cam-1): 1 difference from mock-nvr's decisions")
  const rows = text.stdout.split('\n')
  const first = rows.findIndex(row => row.startsWith('  PUT on the list'))
  t.match(rows.slice(first, first + 4), [
    /^ {2}PUT on the list\s+status, body\s+403, not JSON: "no \[token\]"\s+405, error envelope$/,
    /^ {2}PUT \/nvr\/v1\/cameras\/cam-1\/counting_lines\s+content-type\s+text\/plain\s+application\/json; charset=utf-8$/,
    /^\s+allow\s+\(none\)\s+GET, HEAD$/,
    /^\s+access-control-allow-origin\s+\(none\)\s+\*$/
  ], 'a row for the status and body, and one for each header that differs, the request under the case')
  t.ok(rows.every(row => row.length <= 160), 'no line wider than a wide terminal')
  t.match(text.stdout, 'OK: no violations, 1 difference')
  t.notMatch(text.stdout, '\u001b[')
  const xml = await readFile(junit, 'utf8')
  t.match(xml, '<testcase classname="contract" name="camera cam-1"></testcase>')
  t.match(xml, '<testcase classname="unspecified behaviour" name="PUT on the list"><system-out>')

  const strict = await run(['verify', ...args, '--strict', '--junit', junit], true)
  t.equal(strict.code, 1)
  t.match(strict.stdout, '\u001b[31mFAIL: no violations, 1 difference (--strict: differences count)\u001b[0m')
  t.match(await readFile(junit, 'utf8'), '<failure message="differs from mock-nvr" type="difference">')

  const json = await run(['verify', ...args, '--json'])
  const report = JSON.parse(json.stdout) as { target: string, cameras: string[], violations: unknown[], differences: Array<{ case: string }> }
  t.equal(report.target, url)
  t.strictSame(report.cameras, ['cam-1'])
  t.strictSame(report.violations, [])
  t.strictSame(report.differences.map(difference => difference.case), ['PUT on the list'])
  for (const output of [text.stdout, text.stderr, strict.stdout, json.stdout, xml]) t.notMatch(output, TOKEN)
})

t.test('verify: violations exit 1; an unusable target exits 1 with one line; --insecure warns', async t => {
  const nvr = await startMockNvr({ tokens: [TOKEN], tlsSelfSigned: true })
  t.teardown(() => nvr.close())
  const broken = await run(['verify', '--target', nvr.url, '--token', TOKEN, '--camera', 'nope', '--insecure'], true)
  t.equal(broken.code, 1)
  t.match(broken.stderr, "mock-nvr: warning: --insecure: the target's certificate is not checked")
  t.match(broken.stdout, '\u001b[1mContract: 1 violation\u001b[0m')
  t.match(broken.stdout, /nope\s+-\s+GET \/nvr\/v1\/cameras\/nope\/counting_lines\s+-\s+answered 404, not 200/)
  const untrusted = await run(['verify', '--target', nvr.url, '--token', TOKEN, '--camera', 'cam-security-exit'])
  t.equal(untrusted.code, 1)
  t.match(untrusted.stderr, /^mock-nvr: https:\/\/127\.0\.0\.1:\d+: the target's certificate is not trusted/)
  t.equal(untrusted.stdout, '')
  const folder = t.testdir({ 'ca.pem': nvr.certificate as string })
  const trusted = await run(['verify', '--target', nvr.url.replace('127.0.0.1', 'localhost'), '--token', TOKEN, '--camera', 'cam-security-exit', '--ca', join(folder, 'ca.pem'), '--timeout', '5000', '--run-timeout', '60000'])
  t.equal(trusted.code, 0, trusted.stderr)
  t.match(trusted.stdout, 'OK: no violations, no differences')
})

t.test('verify: a JUnit file that cannot be written is a one-line failure', async t => {
  const { url, requests } = await startFakeTarget(t, (_request, response) => response.writeHead(404).end())
  const folder = t.testdir({})
  const result = await run(['verify', '--target', url, '--token', TOKEN, '--camera', 'c', '--junit', join(folder, 'no', 'report.xml')])
  t.equal(result.code, 1)
  t.equal(result.stderr, `mock-nvr: ${join(folder, 'no', 'report.xml')} cannot be written: its folder does not exist\n`)
  t.equal(requests.length, 0, 'refused before the target is asked')
  const notCompared = await run(['verify', '--target', url, '--token', TOKEN, '--camera', 'c', '--junit', join(folder, 'report.xml')])
  t.equal(notCompared.code, 1)
  t.equal(notCompared.stderr, '')
  t.match(await readFile(join(folder, 'report.xml'), 'utf8'), '<skipped message="no camera answered its list"/>')
})
