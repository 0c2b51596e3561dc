import t from 'tap'
import { parseProxyArgs } from '../../src/cli/proxy-args.js'
import { VERSION } from '../../src/util/version.js'
import { runCommand } from '../helpers/cli-process.js'

const TARGET = 'http://127.0.0.1:1'

t.test('proxy with --target alone forwards with the defaults: no timeout, CA, --insecure or recording of its own', async t => {
  t.strictSame(await parseProxyArgs(['--target', TARGET]), { help: false, version: false, proxy: { target: TARGET }, options: { port: 8080, logLevel: 'info' } })
})

t.test('proxy\'s own flags are read by its table: an empty value is refused as the serve flags refuse one', async t => {
  await t.rejects(parseProxyArgs(['--target', '']), { message: '--target is empty: give it a value' })
  await t.rejects(parseProxyArgs(['--target', TARGET, '--timeout=']), { message: '--timeout is empty: give it a value, or leave it out (default: 10000)' })
  await t.rejects(parseProxyArgs(['--target', '--port', '0']), { message: '--target needs a value, but --port follows it' })
})

t.test('proxy takes no fleet flag: --devices is refused by name, never starting a fleet on the bundled fixtures', async t => {
  t.strictSame(await runCommand(['proxy', '--target', TARGET, '--devices', '2']), {
    code: 2,
    stdout: '',
    stderr: 'mock-nvr: --devices does not apply to proxy: a proxy is one device, forwarding to one target. Run mock-nvr proxy --help for the flags.\n'
  })
  for (const flag of ['--fleet', '--manifest', '--control-port', '--offline-fraction', '--flapping-fraction', '--shard']) {
    await t.rejects(parseProxyArgs(['--target', TARGET, flag, '1']), { message: `${flag} does not apply to proxy: a proxy is one device, forwarding to one target` }, flag)
  }
  t.equal((await runCommand(['proxy', '--target', TARGET], { MOCK_NVR_DEVICES: '2' })).stderr,
    'mock-nvr: MOCK_NVR_DEVICES does not apply to proxy: a proxy is one device, forwarding to one target. Run mock-nvr proxy --help for the flags.\n')
  t.match((await runCommand(['proxy', '--help'])).stdout, 'but for --devices, --fleet, --manifest, --control-port, --offline-fraction, --flapping-fraction and --shard: a proxy is one device, forwarding to one target;')
})

t.test('the environment twins of the flags proxy refuses are refused too, by the variable\'s name', async t => {
  const twins = { MOCK_NVR_TOKENS: 'a', MOCK_NVR_FIXTURES: 'fixtures', MOCK_NVR_GENERATE: '2x2', MOCK_NVR_WATCH: '1', MOCK_NVR_SCOPED_TOKENS: 'a:cam-1', MOCK_NVR_RATE_LIMIT: '5' }
  for (const [variable, value] of Object.entries(twins)) {
    const refused = await runCommand(['proxy', '--target', TARGET, '--port', '0'], { [variable]: value })
    t.equal(refused.code, 2, variable)
    t.equal(refused.stderr, `mock-nvr: ${variable} does not apply to proxy: the target's data and tokens are used. Run mock-nvr proxy --help for the flags.\n`)
  }
  for (const flag of ['--scoped-token', '--rate-limit']) {
    await t.rejects(parseProxyArgs(['--target', TARGET, flag, '1']), { message: `${flag} does not apply to proxy: the target's data and tokens are used` }, flag)
  }
  await t.resolves(parseProxyArgs(['--target', TARGET], { MOCK_NVR_WATCH: 'false' }), 'a switch\'s twin set off asks for nothing')
  const version = await runCommand(['proxy', '--target', TARGET, '--version'], twins)
  t.strictSame(version, { code: 0, stdout: `${VERSION}\n`, stderr: '' }, '--version reads no option')
})
