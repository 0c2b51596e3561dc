import { Type, type Static, type StaticDecode } from '@sinclair/typebox'
import { DEVICE_SETTING_KEYS, OPTION_SCHEMAS, type DeviceSettingKey, type OptionSchemas } from './settings.js'

// The schemas of these settings, as their rows give them.
function pickedSchemas (keys: readonly DeviceSettingKey[]): Pick<OptionSchemas, DeviceSettingKey> {
  return Object.fromEntries(keys.map(key => [key, OPTION_SCHEMAS[key]])) as Pick<OptionSchemas, DeviceSettingKey>
}

/**
 * What one device takes, whatever the surface: a flag and its twin, a fleet file (per device and at the top), the
 * options of startMockNvr and startMockFleet, the MSW handlers. Each field has one spelling and one set of forms;
 * a flag takes the text form of the same value (docs/command-line.md). test/config/surfaces.batched.test.ts holds
 * every surface to this list.
 */
export const DeviceSettingsSchema = Type.Object(pickedSchemas(DEVICE_SETTING_KEYS), { additionalProperties: false })

/** A device's settings as given. */
export type DeviceSettings = Static<typeof DeviceSettingsSchema>
/** A device's settings once read: latency a range, generated data a size. */
export type ReadDeviceSettings = StaticDecode<typeof DeviceSettingsSchema>

/** A name a device may have: it is a path segment of the admin API, so letters, digits, '.', '_' and '-'. */
export const DEVICE_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'

/** A device's name, checked alike in a fleet file and by startMockFleet. */
export const DeviceNameSchema = Type.String({
  pattern: DEVICE_NAME_PATTERN,
  patternRule: "must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit (it is a path segment of the admin API)"
})

/** One device of a fleet: its name, its port, and its own settings. */
export const FleetDeviceSchema = Type.Object({
  name: DeviceNameSchema,
  /** Its port; by default the fleet's port plus its place, or a free one under port 0. */
  port: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  ...DeviceSettingsSchema.properties
}, { additionalProperties: false })
export type FleetDeviceOptions = Static<typeof FleetDeviceSchema>

/** The devices of a fleet: at least one. */
export const FleetDevicesSchema = Type.Array(FleetDeviceSchema, { minItems: 1, minItemsName: 'device' })

/** A schedule file (--schedule, the schedule option): a device's health and drift, as the other surfaces take them. */
export const ScheduleFileSchema = Type.Object(Type.Pick(DeviceSettingsSchema, ['health', 'drift']).properties, { additionalProperties: false })
export type ScheduleFile = Static<typeof ScheduleFileSchema>
