import { readFileSync } from 'node:fs'
import t from 'tap'
import { CLI_OPTIONS, envName } from '../src/cli-args.js'
import { runCli } from './cli-process.js'
import { line } from './helper.js'

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')

t.test('the README documents every flag with its environment twin', async t => {
  for (const option of CLI_OPTIONS) {
    t.match(readme, `\`--${option.flag}`, option.flag)
    t.match(readme, `\`${envName(option)}\``, envName(option))
  }
})

t.test('the README shows the two set-up commands', async t => {
  t.match(readme, 'npm ci && npm start')
  t.match(readme, 'npm test')
})

t.test('the fixture-errors example is what the CLI prints for such a folder', async t => {
  const section = readme.slice(readme.indexOf('<!-- section: fixtures -->'), readme.indexOf('<!-- /section: fixtures -->'))
  const example = /```text\n\$ npx mock-nvr (.*)\n([^`]*)```/.exec(section)
  if (example === null) throw new Error('the Fixtures section has no example')
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
  const run = runCli(args.split(' '), {}, undefined, dir)
  t.equal(await run.exit, 1)
  t.equal(run.stderr(), output)
})
