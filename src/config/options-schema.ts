import { Type, type Static, type StaticDecode } from '@sinclair/typebox'
import { DeviceSettingsSchema } from './device-settings.js'
import { OPTION_SCHEMAS } from './settings.js'

/** The default of maxHeaderSize, in bytes. */
export const DEFAULT_MAX_HEADER_SIZE = 65536

/** Requests a device's journal keeps by default (--journal-size); older ones are dropped first. */
export const DEFAULT_JOURNAL_SIZE = 1000

/** The device settings every device has a value of, once defaults are filled in. */
const FilledSettings = Type.Required(Type.Pick(DeviceSettingsSchema, ['tokens', 'scopedTokens', 'corsOrigins', 'seed']))

/** The server's options, as the table of settings gives their schemas (settings.ts), a device's few defaults filled in. */
export const OptionsSchema = Type.Object({
  ...OPTION_SCHEMAS,
  ...FilledSettings.properties
}, { additionalProperties: false })
/** The options as given, every one of them. */
export type GivenOptions = Static<typeof OptionsSchema>
/** The options once checked and read: latency a range, generated data a size. */
export type ResolvedOptions = StaticDecode<typeof OptionsSchema>
