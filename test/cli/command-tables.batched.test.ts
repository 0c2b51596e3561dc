import { readFile } from 'node:fs/promises'
import t from 'tap'
import { helpText, parseCli } from '../../src/cli/args.js'
import { COMMAND_FLAGS, type CommandName } from '../../src/cli/command-flags.js'
import { parseProxyArgs, PROXY_HELP } from '../../src/cli/proxy-args.js'
import { readFlags } from '../../src/cli/read-flags.js'
import { parseTargetArgs, targetHelpText } from '../../src/cli/target-args.js'
import { UsageError } from '../../src/errors/errors.js'
import { MCP_HELP } from '../../src/cli/mcp-command.js'

const HELP: Record<CommandName, string> = {
  serve: helpText('0.0.0'),
  openapi: helpText('0.0.0'),
  verify: targetHelpText('verify'),
  record: targetHelpText('record'),
  proxy: PROXY_HELP,
  mcp: MCP_HELP
}

t.test('each command\'s help is generated from its table: every flag, with its placeholder', async t => {
  for (const [name, { flags }] of Object.entries(COMMAND_FLAGS) as Array<[CommandName, typeof COMMAND_FLAGS.serve]>) {
    // proxy's help lists its own flags and points to serving's for the rest.
    const listed = name === 'proxy' ? Object.entries(flags).filter(([flag]) => !Object.hasOwn(COMMAND_FLAGS.serve.flags, flag)) : Object.entries(flags)
    for (const [flag, row] of listed) t.match(HELP[name], `  --${flag}${row.value === undefined ? '' : ` ${row.value}`} `, `${name} --${flag}`)
  }
  t.match(HELP.serve, 'select (--fixtures, --generate, --seed), and exit', 'serving\'s help says which flags openapi takes')
})

t.test('a flag that a command does not take is a usage error naming the flag and the commands that take it', async t => {
  t.throws(() => parseCli(['openapi', '--port', '80'], {}), new UsageError('--port does not apply to openapi: it is a flag of serving and proxy'))
  t.throws(() => parseCli(['--out', 'f.json'], {}), new UsageError('--out does not apply to serving: it is a flag of record'))
  t.throws(() => parseTargetArgs('verify', ['--fixtures', 'x']), new UsageError('--fixtures does not apply to verify: it is a flag of serving and openapi'))
  t.throws(() => parseTargetArgs('record', ['--strict']), new UsageError('--strict does not apply to record: it is a flag of verify'))
  await t.rejects(parseProxyArgs(['--target', 'http://x', '--camera', 'c']), new UsageError('--camera does not apply to proxy: it is a flag of verify and record'))
  t.throws(() => parseTargetArgs('verify', ['--json=1']), new UsageError('--json takes no value: give --json to turn it on, leave it out for off'), 'a flag of its own is read as its table says')
})

t.test('an unknown flag is named, with the closest flag of the command when one is close', async t => {
  t.throws(() => parseCli(['--prot', '80'], {}), new UsageError('unknown flag --prot: did you mean --port?'))
  t.throws(() => parseTargetArgs('verify', ['--camra', 'c']), new UsageError('unknown flag --camra: did you mean --camera?'))
  t.throws(() => parseCli(['--ab'], {}), new UsageError('unknown flag --ab'), 'no guess for a short name far from every flag')
  t.throws(() => parseCli(['--colour'], {}), new UsageError('unknown flag --colour'))
  t.throws(() => parseCli(['-x'], {}), new UsageError('unknown flag -x'), 'a short flag gets no guess')
})

t.test('openapi reads only the twins of its own flags: a serving variable set for the container is left alone', async t => {
  t.strictSame(parseCli(['openapi'], { MOCK_NVR_PORT: 'not a port', MOCK_NVR_SEED: '7' }), { command: 'openapi', options: { port: 8080, logLevel: 'info', seed: 7 } })
  t.throws(() => parseCli(['openapi'], { MOCK_NVR_SEED: 'x' }), { message: /^MOCK_NVR_SEED must be a whole number/ })
})

t.test('one reader for every command: the same line gives the same words whichever command reads it', async t => {
  for (const name of ['serve', 'proxy'] as const) {
    const command = COMMAND_FLAGS[name]
    t.throws(() => readFlags(['--host'], command), new UsageError('--host needs a value: --host HOST'), name)
    t.throws(() => readFlags(['--host', '--port', '80'], command), new UsageError('--host needs a value, but --port follows it'), name)
    t.throws(() => readFlags(['--host='], command), new UsageError('--host is empty: give it a value, or leave it out (default: 127.0.0.1)'), name)
    t.throws(() => readFlags(['--cors-origin', 'a,b'], command), new UsageError('--cors-origin takes one value, without commas: give --cors-origin once for each'), name)
  }
  t.strictSame(readFlags(['--camera', 'a,b'], COMMAND_FLAGS.verify).values.get('camera'), ['a,b'], 'a flag with no twin may hold a comma')
})

t.test('docs/target-link.md names every flag of verify, record and proxy in the command\'s section', async t => {
  const page = await readFile(new URL('../../docs/target-link.md', import.meta.url), 'utf8')
  const section = (heading: string) => page.slice(page.indexOf(heading), page.indexOf('\n## ', page.indexOf(heading) + 1) >>> 0)
  const sections = { verify: section('## Check the target'), record: section('## Record the target'), proxy: section('## Proxy the target') }
  for (const [name, text] of Object.entries(sections) as Array<['verify' | 'record' | 'proxy', string]>) {
    const own = Object.keys(COMMAND_FLAGS[name].flags).filter(flag => !Object.hasOwn(COMMAND_FLAGS.serve.flags, flag))
    for (const flag of own) t.match(text, `\`--${flag}`, `${name} --${flag}`)
  }
})
