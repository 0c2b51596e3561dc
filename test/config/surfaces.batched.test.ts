import t from 'tap'
import { DeviceSettingsSchema, FleetDeviceSchema, ScheduleFileSchema } from '../../src/config/device-settings.js'
import { OptionsSchema } from '../../src/config/options-schema.js'
import { CLI_OPTIONS } from '../../src/cli/serve-flags.js'
import { SETTING_ROWS, SETTINGS } from '../../src/config/settings.js'
import { resolveHandlerOptions } from '../../src/msw/handler-options.js'
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
