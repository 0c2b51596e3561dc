import { Type, type Static, type StaticDecode } from '@sinclair/typebox'
import { GenerateSizeSchema, parseGenerateSize, type GenerateSize } from '../data/generate-size.js'
import { ScopedTokensSchema, TokenSchema } from '../contract/schemas.js'
import { RateLimitSchema } from '../contract/rate-limit.js'
import { DelaySchema, toDelayRange, type DelayRange } from '../util/delay.js'
import { PositiveDuration } from '../health/health-states.js'
import { HealthOptionSchema } from '../health/health-spec.js'

/** Delay of every API request: milliseconds, or { min, max } for a random one (see seed); kept as a range once read. */
export const LatencySchema = Type.Transform(DelaySchema)
  // Decoded only once the problems are checked: a backwards range never gets here.
  .Decode(delay => toDelayRange(delay) as DelayRange)
  .Encode(range => range)

/** Generated data: "CAMERASxLINES" as a flag takes it ("10x5"), or { cameras, linesPerCamera }. */
export const GenerateSchema = Type.Transform(Type.Union([Type.String({ minLength: 1 }), GenerateSizeSchema], {
  description: 'CAMERASxLINES like "10x5", or { "cameras": N, "linesPerCamera": M }'
}))
  .Decode(size => typeof size === 'string' ? parseGenerateSize(size) as GenerateSize : size)
  .Encode(size => size)

/**
 * What one device takes, whatever the surface: a flag and its twin, a fleet file (per device and at the top), the
 * options of startMockNvr and startMockFleet, the MSW handlers. Each field has one spelling and one set of forms;
 * a flag takes the text form of the same value (docs/command-line.md). test/config/surfaces.batched.test.ts holds
 * every surface to this list.
 */
export const DeviceSettingsSchema = Type.Object({
  /** A fixture file or folder; in a fleet file, relative to it. Devices with the same one share its data. */
  fixtures: Type.Optional(Type.String({ minLength: 1 })),
  /** Serve generated data instead of fixtures: cam-1 … cam-N, each with line-1 … line-M (see seed). */
  generate: Type.Optional(GenerateSchema),
  /** Seed of every random choice (generated data, delay ranges, drift), so a run can be repeated. */
  seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 4294967295 })),
  /** Accepted bearer tokens; when none, any non-empty token is accepted. */
  tokens: Type.Optional(Type.Array(TokenSchema)),
  /**
   * Tokens that see only some cameras: `{ token, cameras }` each, accepted even when `tokens` lists others; any
   * camera outside a token's list, known or not, is 403 for it. The same token twice sees the cameras of both.
   */
  scopedTokens: Type.Optional(ScopedTokensSchema),
  latency: Type.Optional(LatencySchema),
  /** Origins a browser may call from (scheme://host[:port]); when none, or only '*', any origin. */
  corsOrigins: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  /** Requests per second per token under /nvr/v1, as a token bucket with a burst as large; then 429. Off when absent. */
  rateLimit: Type.Optional(RateLimitSchema),
  /** Its health over time: a state from the start, steps or a pattern (docs/device-health.md); online when absent. */
  health: Type.Optional(HealthOptionSchema),
  /** Edit the data every this many milliseconds, seeded: a line renamed, moved, added or removed. */
  drift: Type.Optional(PositiveDuration)
}, { additionalProperties: false })

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
