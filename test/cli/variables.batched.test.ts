import { readFileSync } from 'node:fs'
import t from 'tap'
import { CLI_OPTIONS, envName } from '../../src/cli/serve-flags.js'
import { editDistance, KNOWN_VARIABLES, unknownVariables } from '../../src/cli/variables.js'
import { TARGET_TOKEN_VARIABLE } from '../../src/cli/target-token.js'
import { runCli, runCommand } from '../helpers/cli-process.js'
import { DOC_PAGES, readDoc, ROOT } from '../helpers/docs.js'

const POINTER = 'Run mock-nvr --help for the flags and their variables.'

t.test('a misspelt variable stops the server with one line naming it and the variable meant', async t => {
  // The natural guess from --token: without the check, the mock starts accepting any token.
  const run = runCli(['--port', '0'], { MOCK_NVR_TOKEN: 'secret' })
  t.equal(await run.exit, 2)
  t.equal(run.stderr(), `mock-nvr: unknown variable MOCK_NVR_TOKEN: did you mean MOCK_NVR_TOKENS? ${POINTER}\n`)
  t.equal(run.stdout(), '')
})

t.test('the suggestion is the closest known name', async t => {
  const cases: Array<[string, string]> = [
    ['MOCK_NVR_TOKEN', 'MOCK_NVR_TOKENS'],
    ['MOCK_NVR_CORS_ORIGIN', 'MOCK_NVR_CORS_ORIGINS'],
    ['MOCK_NVR_PROT', 'MOCK_NVR_PORT'],
    ['MOCK_NVR_LOGLEVEL', 'MOCK_NVR_LOG_LEVEL'],
    ['MOCK_NVR_DEVICE_TOKENS', 'MOCK_NVR_DEVICE_TOKEN']
  ]
  for (const [name, meant] of cases) t.strictSame(unknownVariables({ [name]: 'x' }), { misspelt: `unknown variable ${name}: did you mean ${meant}?`, warnings: [] }, name)
})

t.test('a variable close to no known name is a suite\'s own: a one-line warning each, and no refusal', async t => {
  t.strictSame(unknownVariables({ MOCK_NVR_URL: 'http://127.0.0.1:8080', MOCK_NVR_COLOUR: 'red', MOCK_NVR_: '' }), {
    warnings: ['MOCK_NVR_', 'MOCK_NVR_COLOUR', 'MOCK_NVR_URL'].map(name => `warning: ${name} is not a variable mock-nvr reads; it is left alone`)
  })
  t.strictSame(unknownVariables({ MOCK_NVR_URL: 'x', MOCK_NVR_TOKEN: 'secret' }).misspelt, 'unknown variable MOCK_NVR_TOKEN: did you mean MOCK_NVR_TOKENS?', 'a misspelling still stops the start')
})

t.test('MOCK_NVR_URL, as a suite sets it for its tests, is warned of and the mock starts', async t => {
  const { code, stdout, stderr } = await runCommand(['openapi'], { MOCK_NVR_URL: 'http://127.0.0.1:8080' })
  t.equal(code, 0)
  t.equal(stderr, 'mock-nvr: warning: MOCK_NVR_URL is not a variable mock-nvr reads; it is left alone\n')
  t.match(stdout, '"openapi"')
})

t.test('other variables, and other spellings of the prefix, are not mock-nvr\'s', async t => {
  t.strictSame(unknownVariables({ PATH: '/bin', NVR_PORT: '4010', mock_nvr_port: '1', MOCK_NVRPORT: '1' }), { warnings: [] })
})

t.test('every flag\'s twin and the target token are known: a new flag of the table needs no second list', async t => {
  const everyKnown = Object.fromEntries([...CLI_OPTIONS.map(envName), TARGET_TOKEN_VARIABLE].map(name => [name, 'x']))
  t.strictSame(unknownVariables(everyKnown), { warnings: [] })
  t.equal(KNOWN_VARIABLES.size, CLI_OPTIONS.length + 1)
  t.equal(TARGET_TOKEN_VARIABLE, 'MOCK_NVR_DEVICE_TOKEN')
})

t.test('every variable the docs, the examples and the Docker image name is one mock-nvr reads', async t => {
  const texts = [...DOC_PAGES.map(readDoc), readFileSync(new URL('Dockerfile', ROOT), 'utf8'), ...['docker-compose.yml', 'github-actions.yml', 'playwright/playwright.config.ts'].map(name => readFileSync(new URL(`examples/${name}`, ROOT), 'utf8'))]
  // A name ending in _ is the prefix itself (MOCK_NVR_, MOCK_NVR_TLS_ for the TLS variables), not a variable.
  const named = new Set(texts.flatMap(text => [...text.matchAll(/MOCK_NVR_[A-Z_]*[A-Z](?![A-Z_])/g)].map(([name]) => name)))
  t.ok(named.has('MOCK_NVR_HOST'), 'the Dockerfile sets MOCK_NVR_HOST')
  // The docs show one misspelling and one suite's own variable on purpose, with what each gets.
  t.match(readDoc('docs/command-line.md'), 'mock-nvr: unknown variable MOCK_NVR_TOKEN: did you mean MOCK_NVR_TOKENS?')
  t.match(readDoc('docs/command-line.md'), 'mock-nvr: warning: MOCK_NVR_URL is not a variable mock-nvr reads; it is left alone')
  named.delete('MOCK_NVR_TOKEN')
  named.delete('MOCK_NVR_URL')
  for (const name of named) t.ok(KNOWN_VARIABLES.has(name), name)
})

t.test('every command checks the environment; --help and --version answer in any', async t => {
  const env = { MOCK_NVR_CORS_ORIGIN: 'http://localhost:5173' }
  const refusal = `mock-nvr: unknown variable MOCK_NVR_CORS_ORIGIN: did you mean MOCK_NVR_CORS_ORIGINS? ${POINTER}\n`
  for (const argv of [['openapi'], ['proxy', '--target', 'http://127.0.0.1:9'], ['verify'], ['record']]) {
    t.strictSame(await runCommand(argv, env), { code: 2, stdout: '', stderr: refusal }, argv.join(' '))
  }
  for (const argv of [['--help'], ['-v'], ['verify', '--help'], ['proxy', '-h']]) {
    const { code, stderr } = await runCommand(argv, env)
    t.strictSame({ code, stderr }, { code: 0, stderr: '' }, argv.join(' '))
  }
})

t.test('edit distance counts inserts, deletes, replacements and swaps', async t => {
  t.equal(editDistance('PORT', 'PORT'), 0)
  t.equal(editDistance('PROT', 'PORT'), 1)
  t.equal(editDistance('TOKEN', 'TOKENS'), 1)
  t.equal(editDistance('', 'SEED'), 4)
  t.equal(editDistance('HOST', ''), 4)
  t.equal(editDistance('WATCH', 'LATENCY'), 4)
})

t.test('a command name that does not exist points to --help', async t => {
  for (const word of ['help', 'serve']) {
    t.strictSame(await runCommand([word]), {
      code: 2,
      stdout: '',
      stderr: `mock-nvr: unknown command '${word}' (the commands are openapi, verify, record, proxy, mcp; serving needs none). Run mock-nvr --help for the commands.\n`
    }, word)
  }
})

t.test('a misspelt command is named as a command, with the closest one, whatever flags follow', async t => {
  t.strictSame(await runCommand(['verfy', '--target', 'x']), {
    code: 2,
    stdout: '',
    stderr: "mock-nvr: unknown command 'verfy' (the commands are openapi, verify, record, proxy, mcp; serving needs none): did you mean verify? Run mock-nvr --help for the commands.\n"
  })
  t.match((await runCommand(['proxi', '--devices', '2'])).stderr, "unknown command 'proxi' (the commands are openapi, verify, record, proxy, mcp; serving needs none): did you mean proxy?")
  t.match((await runCommand(['--port', '0', 'extra'])).stderr, "mock-nvr: unexpected argument 'extra'")
})
