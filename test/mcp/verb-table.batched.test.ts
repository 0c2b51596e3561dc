import t from 'tap'
import { startMockNvr } from '../../src/start/start-mock-nvr.js'
import { startMockFleet } from '../../src/fleet/start-mock-fleet.js'
import { VERB_TABLE, inputSchemaOf, rowsFor } from '../../src/mcp/verb-table.js'

// What a handle has that is no verb to steer the mock with: where it is, its Fastify app, and its own close.
const NOT_VERBS = new Set(['name', 'url', 'port', 'host', 'app', 'certificate', 'close', 'clock'])
// The fleet's handle: its devices' handles (each device is named by every tool), one by name, and its close.
const NOT_FLEET_VERBS = new Set(['controlUrl', 'app', 'close', 'clock', 'device'])

const functionsOf = (object: object): string[] => Object.entries(object).filter(([, value]) => typeof value === 'function').map(([key]) => key)

t.test('every verb of the handle, its clock and a fleet\'s handle has a tool, and every tool a verb', async t => {
  const nvr = await startMockNvr({ port: 0, logLevel: 'silent' })
  t.teardown(nvr.close)
  const fleet = await startMockFleet({ count: 1, port: 0, logLevel: 'silent' })
  t.teardown(fleet.close)
  const verbs = new Set([
    ...Object.keys(nvr).filter(key => !NOT_VERBS.has(key)),
    ...functionsOf(nvr.clock).map(name => `clock.${name}`),
    ...Object.keys(fleet).filter(key => !NOT_FLEET_VERBS.has(key))
  ])
  const served = VERB_TABLE.map(row => row.verb)
  for (const verb of verbs) t.ok(served.includes(verb), `${verb} has a tool`)
  for (const row of VERB_TABLE) {
    t.ok(verbs.has(row.verb) || row.verb.startsWith('admin:GET '), `${row.name} serves a verb: ${row.verb}`)
  }
  t.equal(new Set(VERB_TABLE.map(row => row.name)).size, VERB_TABLE.length, 'each tool\'s name once')
  t.notOk(rowsFor(false).some(row => row.scope === 'fleet'), 'a single mock-nvr has no fleet\'s verbs')
})

t.test('a tool\'s arguments are the admin body\'s schema: each row\'s body is the schema its route checks', async t => {
  const { FaultSpecSchema } = await import('../../src/control/faults/fault-spec.js')
  const { ClockBodySchema } = await import('../../src/admin-api/clock-routes.js')
  const byName = new Map(VERB_TABLE.map(row => [row.name, row]))
  t.equal(byName.get('injectFault')?.body, FaultSpecSchema)
  t.equal(byName.get('advanceClock')?.body, ClockBodySchema)
  const use = JSON.stringify(inputSchemaOf(byName.get('use') as typeof VERB_TABLE[number], true))
  t.notMatch(use, '"$id"', 'no $id of the contract\'s shapes in a tool\'s arguments')
  t.match(use, '"camera_id"')
})

t.test('docs/agents.md has a row for every tool', async t => {
  const { readFile } = await import('node:fs/promises')
  const page = await readFile(new URL('../../docs/agents.md', import.meta.url), 'utf8')
  for (const row of VERB_TABLE) t.match(page, `\n| \`${row.name}\` | `, row.name)
})
