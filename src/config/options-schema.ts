import { Type, type Static, type StaticDecode } from '@sinclair/typebox'
import { TokenSchema } from '../contract/schemas.js'
import { DeviceSettingsSchema } from './device-settings.js'
import { ShardSchema } from './shard.js'

const LevelLiterals = [Type.Literal('fatal'), Type.Literal('error'), Type.Literal('warn'), Type.Literal('info'), Type.Literal('debug'), Type.Literal('trace'), Type.Literal('silent')] as const
/** pino's levels, and silent. */
export const LOG_LEVELS = LevelLiterals.map(literal => literal.const)

/** The most devices one fleet starts. */
export const MAX_FLEET_DEVICES = 20_000

/** The default of maxHeaderSize, in bytes. */
export const DEFAULT_MAX_HEADER_SIZE = 65536

/** Requests a device's journal keeps by default (--journal-size); older ones are dropped first. */
export const DEFAULT_JOURNAL_SIZE = 1000

/** The device settings every device has a value of, once defaults are filled in. */
const FilledSettings = Type.Required(Type.Pick(DeviceSettingsSchema, ['tokens', 'scopedTokens', 'corsOrigins', 'seed']))

/** The server's options: a device's settings (device-settings.ts), and what only a server or a fleet has. */
export const OptionsSchema = Type.Object({
  ...DeviceSettingsSchema.properties,
  ...FilledSettings.properties,
  /** TCP port to listen on; 0 picks a free one. */
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  /** Interface to listen on. */
  host: Type.String({ minLength: 1 }),
  /** PEM certificate file (its chain may follow) to serve HTTPS with; needs tlsKey. */
  tlsCert: Type.Optional(Type.String({ minLength: 1 })),
  /** PEM private key file of tlsCert. */
  tlsKey: Type.Optional(Type.String({ minLength: 1 })),
  /** Serve HTTPS with a certificate generated at start for localhost, 127.0.0.1, ::1, this machine's name and the host. */
  tlsSelfSigned: Type.Boolean(),
  /** pino level, or silent. */
  logLevel: Type.Union([...LevelLiterals], { description: `one of ${LOG_LEVELS.slice(0, -1).join(', ')} or ${LOG_LEVELS.at(-1) as string}` }),
  /** Human-readable logs instead of JSON lines. */
  prettyLogs: Type.Boolean(),
  /** Largest request line plus headers, in bytes; it also bounds how long an id in the path can be. */
  maxHeaderSize: Type.Integer({ minimum: 8192, maximum: 1048576 }),
  /** Milliseconds a client has to send the request line and headers (a longer request time-out is shortened to it); 0 for no limit. */
  headersTimeout: Type.Integer({ minimum: 0, maximum: 3600000 }),
  /** Milliseconds a client has to send a whole request, body included; 0 for no limit. */
  requestTimeout: Type.Integer({ minimum: 0, maximum: 3600000 }),
  /** Milliseconds an idle keep-alive connection stays open. */
  keepAliveTimeout: Type.Integer({ minimum: 1, maximum: 3600000 }),
  /** Connections held at once; any more are closed unanswered. 0 for no cap. */
  maxConnections: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
  /** Reload the fixtures when they change on disk; a bad edit is logged and the last good data kept. */
  watch: Type.Boolean(),
  /** Bearer token of the admin API under /__admin/; without it the admin API is off. */
  adminToken: Type.Optional(TokenSchema),
  /** Let a request ask for its own fault with `Prefer: code=503` or `Prefer: delay=800`. */
  allowPrefer: Type.Boolean(),
  /** How many requests the journal keeps, the oldest dropped first; 0 keeps none. */
  journalSize: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
  /** A JSON file of the device's schedule: { "health": a state, steps or a pattern, "drift": ms }, as health and drift. */
  schedule: Type.Optional(Type.String({ minLength: 1 })),
  /** The device's one clock: the machine's, or a manual one that moves only when told (advance). */
  clock: Type.Union([Type.Literal('real'), Type.Literal('manual')], { description: '"real" or "manual"' }),
  /** A fleet: this many devices, nvr-001 …, on port … port+N−1 (startMockFleet's count). */
  devices: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_FLEET_DEVICES })),
  /** A fleet: the devices a fleet file lists. */
  fleet: Type.Optional(Type.String({ minLength: 1 })),
  /** A fleet: the JSON file its devices' names, URLs and cameras are written to before it is ready. */
  manifest: Type.Optional(Type.String({ minLength: 1 })),
  /** A fleet: the port of its admin API and dashboard; port−1 by default, a free one under port 0. */
  controlPort: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  /** A fleet: this share of its devices, chosen by the seed, is offline from the start. */
  offlineFraction: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  /** A fleet: this share of its devices, chosen by the seed, flaps (up 5 s, down 5 s, each at its own phase). */
  flappingFraction: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  /** A fleet: serve only its K-th of N slices of devices by index, 'K/N', with the whole fleet's names, ports, data and health. */
  shard: Type.Optional(ShardSchema)
}, { additionalProperties: false })
/** The options as given, every one of them. */
export type GivenOptions = Static<typeof OptionsSchema>
/** The options once checked and read: latency a range, generated data a size. */
export type ResolvedOptions = StaticDecode<typeof OptionsSchema>
