import t from 'tap'
import { helpText, parseCli } from '../../src/cli/args.js'
import { envName, CLI_OPTIONS, shownDefault } from '../../src/cli/serve-flags.js'
import { LIBRARY_DEFAULTS, resolveOptions } from '../../src/config/options.js'
import { OptionsError } from '../../src/errors/errors.js'
import { describeNonOrigin } from '../../src/wire/origin.js'
import { UsageError } from '../../src/errors/errors.js'

const option = (flag: string) => CLI_OPTIONS.find(option => option.flag === flag) as (typeof CLI_OPTIONS)[number]

t.test('library defaults suit a test double: a free port, no logs', async t => {
  t.strictSame(resolveOptions({}), { ...LIBRARY_DEFAULTS, data: undefined, logger: undefined })
  t.equal(resolveOptions({ port: 9000, tokens: undefined }).port, 9000)
})

t.test('a bad option is refused in the words of the library: its key, what it takes, and its value', async t => {
  const refused = (options: Record<string, unknown>, message: string) => t.throws(() => resolveOptions(options), new OptionsError(message), message)
  refused({ port: 70000 }, 'option port must be a whole number from 0 to 65535, not 70000')
  refused({ port: 80.5 }, 'option port must be a whole number from 0 to 65535, not 80.5')
  refused({ port: '80' }, 'option port must be a whole number from 0 to 65535, not "80"')
  refused({ host: '' }, 'option host must not be empty')
  refused({ host: 8080 }, 'option host must be a string, not 8080')
  refused({ tokens: 'a' }, 'option tokens must be an array of strings')
  refused({ tokens: ['ok', 'has space'] }, 'option tokens[1] must be one word of visible ASCII characters (no spaces, no letters like ö or é)')
  refused({ adminToken: '' }, 'option adminToken must not be empty')
  refused({ logLevel: 'loud' }, 'option logLevel must be one of fatal, error, warn, info, debug, trace or silent, not "loud"')
  refused({ watch: 1 }, 'option watch must be true or false, not 1')
  refused({ generate: 'x' }, "option generate must be CAMERASxLINES, e.g. 100x20, not 'x'")
  refused({ logLevel: {} }, 'option logLevel must be one of fatal, error, warn, info, debug, trace or silent, not {}')
  refused({ generate: 5 }, 'option generate must be CAMERASxLINES like "10x5", or { "cameras": N, "linesPerCamera": M }, not 5')
  refused({ corsOrigins: ['http://localhost:5173/'] }, 'option corsOrigins[0] must be an origin, scheme://host[:port] with nothing after it (like http://localhost:5173), not "http://localhost:5173/"; did you mean \'http://localhost:5173\'?')
  refused({ corsOrigins: ['http://a.test', '*'] }, "option corsOrigins[1] takes '*' (any origin) alone, not with other origins")
  refused({ colour: 'red' }, 'option colour is not known')
  refused({ clock: 'fake' }, 'option clock must be "real" or "manual", not "fake"')
  refused({ drift: 0 }, 'option drift must be a whole number from 1 to 2147483647, not 0')
})

t.test('an origin is scheme://host[:port] with nothing after it, as a browser sends it', async t => {
  for (const origin of ['http://localhost:5173', 'https://staging.example.test', 'http://127.0.0.1:8080', 'http://[::1]:3000', 'chrome-extension://abcdefgh', 'capacitor://localhost']) {
    t.equal(describeNonOrigin(origin), undefined, origin)
  }
  const cases: Array<[string, string | undefined]> = [
    ['http://localhost:5173/', 'http://localhost:5173'],
    ['localhost:5173', 'http://localhost:5173'],
    ['HTTP://Localhost:5173', 'http://localhost:5173'],
    ['http://localhost:80', 'http://localhost'],
    ['https://app.example.test/login?next=1', 'https://app.example.test'],
    ['http://user@a.test', 'http://a.test'],
    ['chrome-extension://abcdefgh/', undefined],
    ['null', undefined],
    ['http://', undefined],
    ['http://a.test:99999', undefined],
    ['*.example.test', undefined]
  ]
  for (const [value, suggestion] of cases) t.strictSame(describeNonOrigin(value)?.suggestion, suggestion, value)
  t.ok(cases.every(([value]) => describeNonOrigin(value) !== undefined), 'each is refused')
})

t.test('every flag has an environment twin named after it', async t => {
  t.equal(envName(option('port')), 'MOCK_NVR_PORT')
  t.equal(envName(option('log-level')), 'MOCK_NVR_LOG_LEVEL')
  t.equal(envName(option('token')), 'MOCK_NVR_TOKENS', 'a repeatable flag has a plural twin')
  t.equal(envName(option('cors-origin')), 'MOCK_NVR_CORS_ORIGINS')
})

t.test('the CLI defaults to port 8080 and info logs', async t => {
  t.strictSame(parseCli([], {}), { command: 'serve', options: { port: 8080, logLevel: 'info' } })
})

t.test('a flag beats its twin, which beats the default', async t => {
  const env = { MOCK_NVR_PORT: '9001', MOCK_NVR_HOST: '0.0.0.0', MOCK_NVR_TOKENS: 'a, b ,c', MOCK_NVR_PRETTY_LOGS: 'false' }
  t.strictSame(parseCli(['--port', '9002', '--token', 'x', '--token', 'y'], env), {
    command: 'serve',
    options: { port: 9002, logLevel: 'info', host: '0.0.0.0', tokens: ['x', 'y'], prettyLogs: false }
  })
  t.strictSame(parseCli([], env), {
    command: 'serve',
    options: { port: 9001, logLevel: 'info', host: '0.0.0.0', tokens: ['a', 'b', 'c'], prettyLogs: false }
  })
  t.strictSame(parseCli(['--port', '9002'], { MOCK_NVR_PORT: '' }), { command: 'serve', options: { port: 9002, logLevel: 'info' } }, 'a twin the flag overrides is not read')
})

t.test('a switch is on as a flag, and its twin takes true/false/1/0', async t => {
  const prettyLogs = (argv: string[], env: Record<string, string>) =>
    (parseCli(argv, env) as { options: { prettyLogs?: boolean } }).options.prettyLogs
  t.equal(prettyLogs(['--pretty-logs'], { MOCK_NVR_PRETTY_LOGS: '0' }), true)
  t.equal(prettyLogs([], { MOCK_NVR_PRETTY_LOGS: '1' }), true)
  t.equal(prettyLogs([], { MOCK_NVR_PRETTY_LOGS: 'TRUE' }), true)
  t.equal(prettyLogs([], { MOCK_NVR_PRETTY_LOGS: 'false' }), false)
  t.throws(() => parseCli([], { MOCK_NVR_PRETTY_LOGS: 'yes' }), new UsageError("MOCK_NVR_PRETTY_LOGS must be true, false, 1 or 0, not 'yes'"))
})

t.test('usage mistakes are UsageErrors with a clear sentence', async t => {
  t.throws(() => parseCli(['--port', 'abc'], {}), new UsageError("--port must be a whole number from 0 to 65535, not 'abc'"))
  t.throws(() => parseCli([], { MOCK_NVR_PORT: '-1' }), new UsageError("MOCK_NVR_PORT must be a whole number from 0 to 65535, not '-1'"))
  t.throws(() => parseCli(['--colour'], {}), new UsageError('unknown flag --colour'))
  t.throws(() => parseCli(['-x'], {}), new UsageError('unknown flag -x'))
  t.throws(() => parseCli(['--port'], {}), new UsageError('--port needs a value: --port PORT'))
  t.throws(() => parseCli(['--host', '--port', '80'], {}), new UsageError('--host needs a value, but --port follows it'))
  t.throws(() => parseCli(['--token', '-h'], {}), { name: 'UsageError', message: '--token needs a value, but -h follows it' })
  t.throws(() => parseCli(['serve'], {}), new UsageError("unexpected argument 'serve'"), 'a word where a command goes is runCommandLine\'s to name')
  t.throws(() => parseCli(['--watch', 'true'], {}), new UsageError("unexpected argument 'true'"))
  t.throws(() => parseCli(['openapi', 'now'], {}), new UsageError("unexpected argument 'now'"))
})

t.test('--help and --version win over everything else', async t => {
  t.strictSame(parseCli(['--port', 'abc', '--help'], {}), { command: 'help' })
  t.strictSame(parseCli(['-h'], {}), { command: 'help' })
  t.strictSame(parseCli(['--version'], {}), { command: 'version' })
  t.strictSame(parseCli(['-v'], {}), { command: 'version' })
})

t.test('every switch is off by default: its flag can only turn it on', async t => {
  const cliDefaults = { ...LIBRARY_DEFAULTS, ...(parseCli([], {}) as { options: object }).options }
  for (const option of CLI_OPTIONS.filter(option => option.kind === 'switch')) {
    t.equal(cliDefaults[option.key], false, option.flag)
    t.equal(shownDefault(option), option.defaultText ?? 'off', option.flag)
  }
})

t.test('the help lists every flag with its twin and default', async t => {
  const help = helpText('1.2.3')
  t.match(help, /^mock-nvr 1\.2\.3/)
  for (const option of CLI_OPTIONS) {
    t.match(help, `--${option.flag}`)
    t.match(help, envName(option))
    t.match(help, `(default: ${shownDefault(option)})`)
  }
})
