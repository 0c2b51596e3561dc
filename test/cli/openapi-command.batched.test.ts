import { join } from 'node:path'
import t from 'tap'
import { helpText, parseCli } from '../../src/cli/args.js'
import { openApiDocument } from '../../src/start/openapi-document.js'
import { LINE_PATH } from '../../src/openapi/examples.js'
import { runCommand } from '../helpers/cli-process.js'
import { line, SAMPLE_DATA } from '../helpers/app.js'
import { UsageError, FixtureError } from '../../src/errors/errors.js'

const lineExamples = (document: Record<string, unknown>) =>
  (document as { paths: Record<string, { get: { parameters: Array<{ example?: string }> } }> })
    .paths[LINE_PATH]?.get.parameters.map(parameter => parameter.example)

t.test('openapi is a sub-command taking the same options', async t => {
  t.strictSame(parseCli(['openapi', '--fixtures', 'site.json'], {}), {
    command: 'openapi', options: { port: 8080, logLevel: 'info', fixtures: 'site.json' }
  })
  t.match(parseCli(['--generate', '2x3', 'openapi'], {}), { command: 'openapi', options: { generate: { cameras: 2 } } })
  t.throws(() => parseCli(['openapi', 'yaml'], {}), new UsageError("unexpected argument 'yaml'"))
  t.match(helpText('1.0.0'), 'mock-nvr openapi [options]')
})

t.test('openApiDocument takes its examples from the data the options select, without listening', async t => {
  t.strictSame(lineExamples(await openApiDocument({ data: SAMPLE_DATA })), ['cam-1', 'line-1'])
  t.strictSame(lineExamples(await openApiDocument({ generate: { cameras: 2, linesPerCamera: 4 } })), ['cam-1', 'line-1'])
  t.strictSame(lineExamples(await openApiDocument()), ['cam-pier-b-gates', 'line-b12-boarding-door'], 'the bundled fixtures by default')
  const dir = t.testdir({ 'bad.json': '{' })
  await t.rejects(openApiDocument({ fixtures: dir }), FixtureError)
})

t.test('mock-nvr openapi prints the document for --fixtures and exits 0', async t => {
  const dir = t.testdir({ 'site.json': JSON.stringify({ counting_lines: [line({ id: 'gate-7', camera_id: 'cam-yard' })] }) })
  const run = await runCommand(['openapi', '--fixtures', dir])
  t.equal(run.code, 0)
  t.equal(run.stderr, '')
  const document = JSON.parse(run.stdout) as Record<string, unknown>
  t.equal(document.openapi, '3.1.0')
  t.strictSame(lineExamples(document), ['cam-yard', 'gate-7'])
  t.match(run.stdout, /^{\n {2}"openapi"/, 'indented for people and diffs')
})

t.test('mock-nvr openapi with bad fixtures exits 1 naming the file', async t => {
  const dir = t.testdir({ 'bad.json': JSON.stringify({ counting_lines: [{ id: 'x' }] }) })
  const run = await runCommand(['openapi', '--fixtures', dir])
  t.equal(run.code, 1)
  t.equal(run.stdout, '')
  t.match(run.stderr, `mock-nvr: Invalid fixtures:\n  ${join(dir, 'bad.json')}: /counting_lines/0/camera_id: is missing`)
})
