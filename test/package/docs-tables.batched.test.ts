import t from 'tap'
import { HEALTH_STATES } from '../../src/health/health-states.js'
import { OptionsSchema } from '../../src/config/options-schema.js'
import { CLI_OPTIONS } from '../../src/cli/serve-flags.js'
import { startMockNvr } from '../../src/start/start-mock-nvr.js'
import { readDoc } from '../helpers/docs.js'

// The pages a user reads for the states, the options and the verbs, held to the code's own tables.

t.test('docs/device-health.md has a row for every health state, naming each field the state takes', async t => {
  const page = readDoc('docs/device-health.md')
  for (const [state, { fields }] of Object.entries(HEALTH_STATES)) {
    const row = new RegExp(`^\\| \`${state}\` \\|.*$`, 'm').exec(page)?.[0]
    t.ok(row, `a row for ${state}`)
    for (const field of Object.keys(fields)) t.match(row ?? '', `\`${field}`, `${state}'s ${field}`)
  }
})

t.test('docs/testing.md names every option of startMockNvr: a flag\'s in camelCase, or one of the library\'s own', async t => {
  const testing = readDoc('docs/testing.md')
  const flags = new Set(CLI_OPTIONS.map(option => option.key as string))
  const libraryOnly = Object.keys(OptionsSchema.properties).filter(key => !flags.has(key))
  for (const key of libraryOnly) t.match(testing, `\`${key}\``, `the library's own ${key}`)
  t.match(testing, 'Every option of the CLI is an option here (camelCase', 'the flags\' options, by the rule that names them')
})

t.test('every verb of the handle is in the docs: docs/testing.md, or device-health.md for health and the clock', async t => {
  const pages = readDoc('docs/testing.md') + readDoc('docs/device-health.md')
  const nvr = await startMockNvr({ port: 0 })
  t.teardown(async () => await nvr.close())
  const verbs = Object.entries(nvr).filter(([, value]) => typeof value === 'function').map(([name]) => name)
  t.ok(verbs.length > 10)
  for (const verb of verbs) t.match(pages, `nvr.${verb}(`, verb)
  for (const verb of Object.keys(nvr.clock)) t.match(pages, `clock.${verb}`, `clock.${verb}`)
})
