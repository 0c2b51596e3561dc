import t from 'tap'
import { envName, CLI_OPTIONS, helpText, parseCli, UsageError } from '../../src/cli/args.js'
import { LIBRARY_DEFAULTS, OptionsError, resolveOptions } from '../../src/config/options.js'

const option = (flag: string) => CLI_OPTIONS.find(option => option.flag === flag) as (typeof CLI_OPTIONS)[number]

t.test('library defaults suit a test double: a free port, no logs', async t => {
  t.strictSame(resolveOptions({}), { ...LIBRARY_DEFAULTS, data: undefined, logger: undefined })
  t.equal(resolveOptions({ port: 9000, tokens: undefined }).port, 9000)
})

t.test('a bad option is refused with its name and value', async t => {
  t.throws(() => resolveOptions({ port: 70000 }), new OptionsError('option port (70000) is invalid: expected integer to be less or equal to 65535'))
  t.throws(() => resolveOptions({ tokens: ['has space'] }), { name: 'OptionsError', message: /^option tokens is invalid/ })
  t.throws(() => resolveOptions({ logLevel: 'loud' as never }), { message: /^option logLevel \("loud"\) is invalid/ })
  t.throws(() => resolveOptions({ colour: 'red' } as never), new OptionsError('option colour is not known'))
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
  const env = { MOCK_NVR_PORT: '9001', MOCK_NVR_HOST: '0.0.0.0', MOCK_NVR_TOKENS: 'a, b,,c', MOCK_NVR_PRETTY_LOGS: 'false' }
  t.strictSame(parseCli(['--port', '9002', '--token', 'x', '--token', 'y'], env), {
    command: 'serve',
    options: { port: 9002, logLevel: 'info', host: '0.0.0.0', tokens: ['x', 'y'], prettyLogs: false }
  })
  t.strictSame(parseCli([], env), {
    command: 'serve',
    options: { port: 9001, logLevel: 'info', host: '0.0.0.0', tokens: ['a', 'b', 'c'], prettyLogs: false }
  })
  t.equal((parseCli([], { MOCK_NVR_PORT: '' }) as { options: { port: number } }).options.port, 8080, 'an empty twin is unset')
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
  t.throws(() => parseCli(['--port', 'abc'], {}), new UsageError("--port must be a whole number, not 'abc'"))
  t.throws(() => parseCli([], { MOCK_NVR_PORT: '-1' }), new UsageError("MOCK_NVR_PORT must be a whole number, not '-1'"))
  t.throws(() => parseCli(['--colour'], {}), { name: 'UsageError', message: /Unknown option '--colour'/ })
  t.throws(() => parseCli(['--port'], {}), { name: 'UsageError', message: /argument missing/ })
  t.throws(() => parseCli(['serve'], {}), new UsageError("unexpected argument 'serve'"))
})

t.test('--help and --version win over everything else', async t => {
  t.strictSame(parseCli(['--port', 'abc', '--help'], {}), { command: 'help' })
  t.strictSame(parseCli(['-h'], {}), { command: 'help' })
  t.strictSame(parseCli(['--version'], {}), { command: 'version' })
  t.strictSame(parseCli(['-v'], {}), { command: 'version' })
})

t.test('the help lists every flag with its twin and default', async t => {
  const help = helpText('1.2.3')
  t.match(help, /^mock-nvr 1\.2\.3/)
  for (const option of CLI_OPTIONS) {
    t.match(help, `--${option.flag}`)
    t.match(help, envName(option))
    if (option.default !== undefined) t.match(help, `(default: ${option.default})`)
  }
})
