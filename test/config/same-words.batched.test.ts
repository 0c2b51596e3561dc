import { join } from 'node:path'
import t from 'tap'
import { parseCli } from '../../src/cli/args.js'
import { UsageError } from '../../src/errors/errors.js'
import { resolveOptions, type MockNvrOptions } from '../../src/config/options.js'
import { readFleetFile } from '../../src/fleet/fleet-file.js'
import { planDevices } from '../../src/fleet/fleet-options.js'
import { resolveHandlerOptions } from '../../src/msw/handler-options.js'
import { thrown } from '../helpers/thrown.js'

/**
 * One bad value on every surface that takes it: the flag's text, the library's value (a fleet file's too). What
 * follows the name must be the same words; only the quoting differs (text as the user typed it, JSON in a file).
 */
const CASES: Array<{ flag: string, text: string, key: keyof MockNvrOptions, value: unknown, device?: boolean, msw?: boolean }> = [
  { flag: 'rate-limit', text: '0', key: 'rateLimit', value: 0, device: true, msw: true },
  { flag: 'latency', text: '800-100', key: 'latency', value: { min: 800, max: 100 }, device: true, msw: true },
  { flag: 'seed', text: '-1', key: 'seed', value: -1, device: true, msw: true },
  { flag: 'drift', text: '0', key: 'drift', value: 0, device: true },
  { flag: 'token', text: 'has space', key: 'tokens', value: ['has space'], device: true, msw: true },
  { flag: 'cors-origin', text: 'localhost:5173', key: 'corsOrigins', value: ['localhost:5173'], device: true, msw: true },
  { flag: 'generate', text: '1001x1000', key: 'generate', value: '1001x1000', device: true },
  { flag: 'port', text: '70000', key: 'port', value: 70000 },
  { flag: 'log-level', text: 'loud', key: 'logLevel', value: 'loud' },
  { flag: 'clock', text: 'fast', key: 'clock', value: 'fast' },
  { flag: 'shard', text: '4/3', key: 'shard', value: '4/3' }
]

// The words after the name, with quotes and list positions (a repeatable flag's value is its list's [0], /0 in a file) taken out.
function words (message: string, name: string): string {
  return message.slice(message.indexOf(name) + name.length).replace(/^(\[0\]|\/0)/, '').replace(/^:/, '').replace(/'([^']*)'/g, '$1').replace(/"([^"]*)"/g, '$1').replace(/\[("?)([^\]]*)\1\]/g, '$2').trim()
}

t.test('the CLI, startMockNvr, startMockFleet\'s devices and the MSW handlers refuse a value in the same words', async t => {
  for (const { flag, text, key, value, device, msw } of CASES) {
    const cli = thrown(() => parseCli([`--${flag}`, text], {}))
    t.ok(cli.startsWith(`--${flag} `), cli)
    const expected = words(cli, `--${flag}`)
    t.equal(words(thrown(() => resolveOptions({ [key]: value })), `option ${key}`), expected, `startMockNvr's ${key}`)
    if (device === true) t.equal(words(thrown(() => planDevices({ devices: [{ name: 'a', [key]: value }] })), `option devices[0].${key}`), expected, `a device's ${key}`)
    if (msw === true) t.equal(words(thrown(() => resolveHandlerOptions({ baseUrl: 'http://nvr.test', [key]: value })), `option ${key}`), expected, `the handlers' ${key}`)
  }
  t.type(new UsageError('x'), Error)
})

t.test('a fleet file refuses a device\'s value in the library\'s words, at its JSON path', async t => {
  for (const { key, value, device } of CASES) {
    if (device !== true) continue
    const dir = t.testdir({ 'fleet.json': JSON.stringify({ devices: [{ name: 'a', [key]: value }] }) })
    const file = join(dir, 'fleet.json')
    const fromFile = await readFleetFile(file).then(() => 'accepted', (error: Error) => error.message)
    const library = thrown(() => planDevices({ devices: [{ name: 'a', [key]: value }] }))
    t.equal(words(fromFile, `${file}: /devices/0/${key}`), words(library, `option devices[0].${key}`), key)
  }
})

t.test('the admin API refuses a setting it changes at run time in the library\'s words, as problems at the body\'s path', async t => {
  const { startMockNvr } = await import('../../src/start/start-mock-nvr.js')
  const nvr = await startMockNvr({ port: 0, adminToken: 'admin', logLevel: 'silent' })
  t.teardown(async () => await nvr.close())
  const refusal = async (url: string, payload: unknown) => {
    const answer = await nvr.app.inject({ method: 'PUT', url, headers: { authorization: 'Bearer admin' }, payload: payload as object })
    t.equal(answer.statusCode, 400, url)
    return (answer.json() as { result: { problems: Array<{ path: string, message: string }> } }).result.problems
  }
  const scoped = [{ token: 'has space', cameras: ['cam-1'] }]
  t.strictSame(await refusal('/__admin/scoped-tokens', scoped), [{ path: '/0/token', message: words(thrown(() => resolveOptions({ scopedTokens: scoped })), 'option scopedTokens[0].token') }])
  // The body may also be null, to turn the limit off; the range is the option's own.
  const [rate] = await refusal('/__admin/rate-limit', { rateLimit: 0 })
  const range = words(thrown(() => resolveOptions({ rateLimit: 0 })), 'option rateLimit').replace(/, not 0$/, '')
  t.equal(rate?.message, `${range}, or null to turn the limit off`)
  const [state] = await refusal('/__admin/health', { state: 'sleepy' })
  t.match(state, { path: '/state', message: /^must be one of "online", "offline", "unreachable", "rebooting", "slow"$/ })
})
