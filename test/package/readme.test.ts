import { readFileSync } from 'node:fs'
import t from 'tap'
import { CLI_OPTIONS, envName } from '../../src/cli/args.js'

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')

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
