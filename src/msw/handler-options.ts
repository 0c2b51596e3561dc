import { Type, type Static, type StaticDecode } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { fieldProblem, findOptionsProblem, optionsError } from '../config/option-problems.js'
import { SHARED_OPTION_DEFAULTS } from '../config/shared-options.js'
import { DeviceSettingsSchema, type DeviceSettings } from '../config/device-settings.js'
import { SETTINGS } from '../config/settings.js'
import { OptionsSchema } from '../config/options-schema.js'
import { bareOriginOf } from '../wire/origin.js'
import type { FixtureData } from '../contract/schemas.js'

/** The device settings whose row in the settings' table gives no reason the handlers cannot take them. */
type MswSetting = { [Key in keyof DeviceSettings]-?: typeof SETTINGS[Key] extends { notForMsw: string } ? never : Key }[keyof DeviceSettings]
const MSW_SETTINGS = (Object.keys(DeviceSettingsSchema.properties) as Array<keyof DeviceSettings>).filter(key => !('notForMsw' in SETTINGS[key])) as MswSetting[]

/**
 * The handlers' options: the device settings a browser can act on, with startMockNvr's schema rows, so a value
 * either refuses the other refuses too, in the same words. Which settings are left out, and why, is listed in
 * the settings' table (config/settings.ts).
 */
const HandlerOptionsSchema = Type.Object({
  /** The origin the frontend calls, e.g. 'http://nvr.test' or location.origin; the API is under `${baseUrl}/nvr/v1`. */
  baseUrl: Type.String(),
  ...Type.Pick(DeviceSettingsSchema, MSW_SETTINGS).properties,
  /** Data in the shape of a fixture file, checked as one when served; the bundled demo fixtures when absent. */
  data: Type.Optional(Type.Unsafe<FixtureData>(Type.Unknown())),
  /** The handlers' clock: the page's, or 'manual', which their `clock.advance(ms)` moves (latency, delays, the rate limit). */
  clock: Type.Optional(OptionsSchema.properties.clock)
}, { additionalProperties: false })
const checkHandlerOptions = TypeCompiler.Compile(HandlerOptionsSchema)

/** What createNvrHandlers takes. */
export type NvrHandlersOptions = Static<typeof HandlerOptionsSchema>

/** The options checked and read, with their defaults: what the handlers are built from. */
export type ResolvedHandlerOptions = Required<Pick<StaticDecode<typeof HandlerOptionsSchema>, 'tokens' | 'scopedTokens' | 'corsOrigins' | 'seed' | 'clock'>>
  & Omit<StaticDecode<typeof HandlerOptionsSchema>, 'baseUrl'> & { origin: string }

/** Checks the options as startMockNvr checks its own, in the same words; a bad one throws OptionsError naming it. */
export function resolveHandlerOptions (input: NvrHandlersOptions | undefined): ResolvedHandlerOptions {
  const options = Object.fromEntries(Object.entries(input ?? {}).filter(([, value]) => value !== undefined)) as NvrHandlersOptions
  const problem = findOptionsProblem(checkHandlerOptions, options, ({ baseUrl }) => {
    return bareOriginOf(baseUrl) === undefined
      ? fieldProblem('baseUrl', '', "must be an origin such as 'http://nvr.test' or location.origin, without a path", baseUrl)
      : undefined
  })
  if (problem !== undefined) throw optionsError(problem)
  const { baseUrl, ...read } = checkHandlerOptions.Decode(options)
  return { ...SHARED_OPTION_DEFAULTS, clock: 'real', ...read, origin: bareOriginOf(baseUrl) as string }
}
