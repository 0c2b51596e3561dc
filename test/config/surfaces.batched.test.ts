import t from 'tap'
import { DeviceSettingsSchema, FleetDeviceSchema, ScheduleFileSchema } from '../../src/config/device-settings.js'
import { OptionsSchema } from '../../src/config/options-schema.js'
import { CLI_OPTIONS } from '../../src/cli/serve-flags.js'
import { RUN_TIME_SETTINGS, SETTING_ROWS, SETTINGS, setterOf } from '../../src/config/settings.js'
import type { RunTimeSettingTypes } from '../../src/control/summaries.js'
import { VERB_TABLE } from '../../src/admin-api/verbs.js'
import { startMockNvr } from '../../src/start/start-mock-nvr.js'
import { createNvrHandlers } from '../../src/msw/index.js'
import { resolveHandlerOptions } from '../../src/msw/handler-options.js'
import { SAMPLE_DATA } from '../helpers/app.js'
import { readDoc } from '../helpers/docs.js'

const FIELDS = Object.keys(DeviceSettingsSchema.properties).sort()

// Each surface that lacks a device setting says why here; a new setting no surface lists fails these tests.
const reasons = (field: 'noFlag' | 'notForMsw' | 'notForProxy'): Record<string, string> =>
  Object.fromEntries(SETTING_ROWS.flatMap(([key, row]) => row[field] === undefined ? [] : [[key, row[field]]]))
const NO_FLAG = reasons('noFlag')
const NOT_IN_SCHEDULE_FILES: Record<string, string> = {
  fixtures: 'a schedule file says how a device behaves over time, not what it serves',
  generate: 'as fixtures',
  seed: 'the seed is the device\'s own (--seed), shared by its data, delays and drift',
  tokens: 'not a matter of time',
  scopedTokens: 'not a matter of time',
  latency: 'a steady delay is --latency; a slow spell is a health state',
  corsOrigins: 'not a matter of time',
  rateLimit: 'not a matter of time'
}
const NOT_FOR_MSW = reasons('notForMsw')

t.test('every device setting is a library option of startMockNvr, of startMockFleet\'s devices and of a fleet file', async t => {
  for (const field of FIELDS) {
    t.ok(field in OptionsSchema.properties, `startMockNvr's ${field}`)
    t.ok(field in FleetDeviceSchema.properties, `a fleet device's ${field}`)
  }
})

t.test('every device setting has a flag and twin, or a reason it has none', async t => {
  const flags = new Set(CLI_OPTIONS.map(option => option.key as string))
  t.strictSame(FIELDS.filter(field => !flags.has(field) && NO_FLAG[field] === undefined), [])
  t.strictSame(Object.keys(NO_FLAG).filter(field => flags.has(field)), [], 'no exception for a field that has a flag')
  t.strictSame(SETTING_ROWS.filter(([, row]) => (row.flag === undefined) === (row.noFlag === undefined)).map(([key]) => key), [], 'every setting has a flag, or why none')
})

t.test('a schedule file takes the settings that go with time, and says why not the others', async t => {
  const taken = Object.keys(ScheduleFileSchema.properties)
  t.strictSame(FIELDS.filter(field => !taken.includes(field)), Object.keys(NOT_IN_SCHEDULE_FILES).sort())
})

t.test('the MSW handlers take every setting a browser can act on, and say why not the others', async t => {
  const taken = FIELDS.filter(field => {
    try {
      resolveHandlerOptions({ baseUrl: 'http://nvr.test', [field]: undefined, ...{ [field]: null } } as never)
    } catch (error) {
      return !(error as Error).message.includes('is not known')
    }
    return true
  })
  t.strictSame(FIELDS.filter(field => !taken.includes(field)), Object.keys(NOT_FOR_MSW).sort())
})

t.test('the fleet file\'s table in docs/fleet.md has a row for every device setting', async t => {
  const fleet = readDoc('docs/fleet.md')
  for (const field of FIELDS) t.match(fleet, new RegExp(`^\\| \`${field}\` \\| both \\|`, 'm'), field)
})

t.test('the settings\' table has a row for every option, and only those', async t => {
  t.strictSame(Object.keys(SETTINGS).sort(), [...Object.keys(OptionsSchema.properties), 'data'].sort())
  t.strictSame(NOT_FOR_MSW.health !== undefined && Object.keys(NOT_FOR_MSW).every(key => FIELDS.includes(key)), true, 'the MSW reasons are of device settings')
})

// A run-time setting is declared by its row alone: its handle verb, its admin routes and its MCP tools follow.
t.test('every setting a running device takes has its verb on the handle and the MSW handlers, its admin routes and its tools', async t => {
  const typed: Record<keyof RunTimeSettingTypes, true> = { scopedTokens: true, rateLimit: true }
  t.strictSame(RUN_TIME_SETTINGS.map(([key]) => key), Object.keys(typed), 'the summaries\' types name the same settings, in order')
  const nvr = await startMockNvr({ port: 0, logLevel: 'silent' })
  t.teardown(nvr.close)
  const handlers = createNvrHandlers({ data: SAMPLE_DATA, baseUrl: 'http://nvr.test' })
  for (const [key] of RUN_TIME_SETTINGS) {
    const verb = setterOf(key)
    t.type((nvr as unknown as Record<string, unknown>)[verb], 'function', `the handle's ${verb}`)
    t.type((handlers as unknown as Record<string, unknown>)[verb], 'function', `the handlers' ${verb}`)
    t.ok(VERB_TABLE.some(row => row.name === verb && row.call({}).method === 'PUT'), `${verb} is a tool and a PUT`)
    t.ok(VERB_TABLE.some(row => row.name === key && row.call({}).method === 'GET'), `${key} is a tool and a GET`)
  }
  t.strictSame(nvr.setRateLimit(5), { rateLimit: 5 }, 'the verb reaches the device')
  t.strictSame(handlers.setRateLimit(null), { rateLimit: null })
})
