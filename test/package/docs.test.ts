import t from 'tap'
import { helpText } from '../../src/cli/args.js'
import { CLI_OPTIONS, envName, shownDefault } from '../../src/cli/serve-flags.js'
import { printed, runCli, runCommand } from '../helpers/cli-process.js'
import { line } from '../helpers/app.js'
import { DOC_PAGES, docSection, readDoc } from '../helpers/docs.js'
import { ERROR_CODES, THROWN_ERROR_CODES } from '../../src/errors/catalogue.js'
import { apiErrors, type ApiError } from '../../src/wire/errors.js'

const readme = readDoc('README.md')
const commandLine = readDoc('docs/command-line.md')
const fixtures = readDoc('docs/fixtures.md')
// The command-line page has the table of most flags; the data and HTTPS flags are on their own pages.
const reference = [commandLine, fixtures, readDoc('docs/https.md')].join('\n')

t.test('the docs document every flag with its environment twin', async t => {
  for (const option of CLI_OPTIONS) {
    t.match(reference, `| \`--${option.flag}`, `${option.flag} has a row in a flag table`)
    t.match(reference, `\`${envName(option)}\``, envName(option))
  }
})

t.test('every page of docs/ is linked from the front page and from the index', async t => {
  const index = readDoc('docs/README.md')
  for (const page of DOC_PAGES.filter(path => path.startsWith('docs/') && path !== 'docs/README.md')) {
    t.ok(readme.includes(`](${page})`), `README.md links ${page}`)
    t.ok(index.includes(`](${page.slice('docs/'.length)})`), `docs/README.md links ${page}`)
  }
})

t.test('the command line\'s flag table is the --help table: the same flags in the same order, twins and defaults', async t => {
  const section = docSection(commandLine, 'cli')
  const rows = [...section.matchAll(/^\| `(--[^`]+)` \| `([A-Z_]+)` \| ([^|]+) \|/gm)].map(([, flag, variable, defaultCell]) => ({
    flag: (flag as string).replaceAll('\\|', '|'),
    variable: variable as string,
    default: (defaultCell as string).replaceAll('`', '').trim()
  }))
  const help = helpText('0.0.0')
  t.strictSame(rows, CLI_OPTIONS.map(option => ({
    flag: `--${option.flag}${option.value === undefined ? '' : ` ${option.value}`}`,
    variable: envName(option),
    default: shownDefault(option)
  })))
  for (const row of rows) {
    t.match(help, `  ${row.flag} `, row.flag)
    t.match(help, `(default: ${row.default})\n${' '.repeat(28)}env: ${row.variable}\n`, row.variable)
  }
})

t.test('the usage-error examples are what the CLI prints', async t => {
  const section = docSection(commandLine, 'cli')
  const examples = [...section.matchAll(/^ *\$ ((?:[A-Z_]+=\S* )*)npx mock-nvr ?(.*)\n *(mock-nvr: .*)$/gm)]
  t.ok(examples.length >= 2, 'the section shows usage errors')
  for (const [, assignments, args, output] of examples) {
    const env = Object.fromEntries((assignments as string).trim().split(' ').filter(Boolean).map(pair => pair.split('=') as [string, string]))
    const run = await runCommand((args as string).split(' ').filter(Boolean), env)
    t.equal(run.code, 2)
    t.equal(run.stderr, `${output as string}\n`)
  }
})

t.test('the README shows the two set-up commands', async t => {
  t.match(readme, 'npm ci && npm start')
  t.match(readme, 'npm test')
})

t.test('the fixture-errors example is what the CLI prints for such a folder', async t => {
  const section = docSection(fixtures, 'fixtures')
  const example = /```text\n\$ npx mock-nvr (.*)\n([^`]*)```/.exec(section)
  if (example === null) throw new Error('the fixtures page has no example')
  const [, args, output] = example as unknown as [string, string, string]
  const lines = ['a', 'b', 'gate-1', 'c', 'd', 'e'].map(id => line({ id, camera_id: 'cam-yard' }))
  const site = lines.map((entry, index) => index === 3
    ? { ...entry, created: '2024-05-01 08:30:00' }
    : index === 5 ? { ...entry, colour: 'red' } : entry)
  const dir = t.testdir({
    fixtures: {
      'broken.json': '{\n  "cameras": [\n    { "id": "cam-yard" },\n  ]\n}\n',
      'site.json': JSON.stringify({ counting_lines: site }),
      'yard.json': JSON.stringify({ counting_lines: [line({ id: 'gate-1', camera_id: 'cam-yard' })] })
    }
  })
  const run = await runCommand(args.split(' '), {}, dir)
  t.equal(run.code, 1)
  t.equal(run.stderr, output)
})

t.test('the request log example has the fields, order and precision of a real request line', async t => {
  const example = /```json\n {2}(\{"level":30.*"msg":"request completed"\})\n/.exec(commandLine)?.[1]
  if (example === undefined) throw new Error('the command-line page shows no request line')
  const shown = JSON.parse(example) as Record<string, unknown>
  const run = runCli(['--port', '0', '--log-level', 'info'])
  t.teardown(() => run.child.kill())
  const url = await run.ready
  await fetch(`${url}${shown.url as string}`, { headers: { authorization: 'Bearer any' } })
  await printed(run, '"msg":"request completed"')
  const written = run.stdout().split('\n').find(text => text.includes('"msg":"request completed"')) as string
  const real = JSON.parse(written) as Record<string, unknown>
  t.strictSame(Object.keys(shown), Object.keys(real), 'the same fields in the same order')
  t.strictSame(Object.values(shown).map(value => typeof value), Object.values(real).map(value => typeof value))
  t.match(written, /"responseTime":\d+(\.\d{1,2})?,/, 'to 0.01 ms')
  t.match(example, /"responseTime":\d+(\.\d{1,2})?,/)
})

t.test('docs/contract.md lists every code the library throws, with its class, in the catalogue\'s order', async t => {
  const section = docSection(readDoc('docs/contract.md'), 'thrown-error-codes')
  const rows = [...section.matchAll(/^\| `(NVR_ERR_[A-Z_]+)` \| ([^|]*) \|/gm)]
  t.strictSame(rows.map(([, code]) => code), Object.values(THROWN_ERROR_CODES))
  for (const [name, code] of Object.entries(THROWN_ERROR_CODES)) {
    const row = rows.find(([, documented]) => documented === code)?.[2] ?? ''
    if (!row.startsWith('(')) t.match(row, `\`${name}\``, `${code} names its class`)
  }
})

t.test('the error catalogue in docs/contract.md lists every errorCode, with the status of its answers', async t => {
  const section = docSection(readDoc('docs/contract.md'), 'error-codes')
  const documented = [...section.matchAll(/^\| `([A-Z_]+)` \|/gm)].map(([, code]) => code)
  t.strictSame(documented, Object.values(ERROR_CODES), 'the same codes, in the catalogue\'s order')
  const answers: Array<[ApiError, string]> = [
    [apiErrors.unauthorized('no_credentials'), 'NO_CREDENTIALS'], [apiErrors.cameraNotFound('x'), 'CAMERA_NOT_FOUND'],
    [apiErrors.rateLimited(2), 'RATE_LIMITED'], [apiErrors.cameraForbidden('x'), 'FORBIDDEN'], [apiErrors.clientError(431), 'HEADERS_TOO_LARGE'],
    [apiErrors.clientError(408), 'REQUEST_TIMEOUT'], [apiErrors.targetNoAnswer(true, 'x'), 'DEVICE_TIMEOUT'], [apiErrors.targetNoAnswer(false, 'x'), 'DEVICE_UNREACHABLE']
  ]
  for (const [error, code] of answers) {
    t.equal(error.code, code)
    t.match(section, new RegExp(`^\\| \`${code}\` \\| [^|]*\\b${error.statusCode}\\b`, 'm'), `${code} is documented with ${error.statusCode}`)
  }
})
