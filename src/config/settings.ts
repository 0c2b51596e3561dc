import { Type, type TSchema } from '@sinclair/typebox'
import { RateLimitSchema } from '../contract/rate-limit.js'
import { ScopedTokensSchema, TokenSchema } from '../contract/schemas.js'
import { GenerateSchema } from '../data/generate-size.js'
import { HealthOptionSchema } from '../health/health-spec.js'
import { PositiveDuration } from '../health/health-states.js'
import { LatencySchema } from '../util/delay.js'
import { ShardSchema } from './shard.js'

const LevelLiterals = [Type.Literal('fatal'), Type.Literal('error'), Type.Literal('warn'), Type.Literal('info'), Type.Literal('debug'), Type.Literal('trace'), Type.Literal('silent')] as const
/** pino's levels, and silent. */
export const LOG_LEVELS = LevelLiterals.map(literal => literal.const)

/** The most devices one fleet starts. */
export const MAX_FLEET_DEVICES = 20_000

/** How a flag's text is read into its option's value. */
export type OptionKind = 'integer' | 'fraction' | 'string' | 'list' | 'scopes' | 'switch' | 'size' | 'delay'

/** A setting's flag: its name, how its text is read, its value's name and its help; its twin (MOCK_NVR_…) follows. */
export interface SettingFlag {
  flag: string
  kind: OptionKind
  /** The default in words, for an option whose default is not a value (none, any origin); the others show the code's own. */
  defaultText?: string
  value?: string
  help: string
}

/**
 * One setting, declared once: its schema, its flag or why it has none, and each surface that does not take it, with
 * why; a surface takes a setting whose row gives no reason.
 */
export interface SettingRow {
  /** What the option takes, as startMockNvr checks it; every surface checks the same (data's is the fixture schema). */
  schema?: TSchema
  /** A device's own setting: each device of a fleet, a fleet file's device and the MSW handlers take it. */
  perDevice?: true
  flag?: SettingFlag
  /** Why no flag can give it. */
  noFlag?: string
  /** Why a proxy refuses it. */
  notForProxy?: string
  /** Why the MSW handlers do not take it (a device setting a browser cannot act on). */
  notForMsw?: string
  /** It starts a fleet: startMockNvr refuses it, and a fleet's devices do not each take it. */
  fleet?: true
  /** The handle's verb that changes it while the device runs, when it is a verb of its own (the admin API's and the MCP tool's too: admin-api/verbs.ts). */
  verb?: string
  /** A device takes a new value while it runs: its handle, admin API and MCP tools all follow from this (RUN_TIME_SETTINGS). */
  runTime?: RunTimeSetting
}

/**
 * How a running device takes a new value of a setting. The handle's verb is `set` and the setting's name
 * (setRateLimit), the admin API's path the name in kebab case (PUT and GET /rate-limit), the MCP tools the verb
 * and the name.
 */
export interface RunTimeSetting {
  /** The value a running device takes, which may be more than the option's: null turns the rate limit off. */
  value: TSchema
  /** Whether the admin body is the value itself, not `{ "<setting>": value }`. */
  bodyIsTheValue?: true
  /** What the value is, what setting it does and what reading it answers, in the admin API's and the MCP tools' words. */
  describe: { value: string, set: string, read: string }
  /** The line the admin API logs once it is set. */
  logged: string
}

const TARGETS_OWN = 'the target\'s data and tokens are used'
const ONE_DEVICE = 'a proxy is one device, forwarding to one target'

/**
 * Every setting of mock-nvr, in the order --help lists them: the CLI's flags and twins, the proxy's refusals, the
 * options that start a fleet and the MSW handlers' options follow from these rows, and a test holds every surface
 * to them (test/config/surfaces.batched.test.ts).
 */
export const SETTINGS = {
  /** TCP port to listen on; 0 picks a free one. */
  port: { schema: Type.Integer({ minimum: 0, maximum: 65535 }), flag: { flag: 'port', kind: 'integer', value: 'PORT', help: 'TCP port to listen on; 0 picks a free port' } },
  /** Interface to listen on. */
  host: { schema: Type.String({ minLength: 1 }), flag: { flag: 'host', kind: 'string', value: 'HOST', help: 'interface to listen on; 0.0.0.0 for every interface' } },
  /** PEM certificate file (its chain may follow) to serve HTTPS with; needs tlsKey. */
  tlsCert: { schema: Type.Optional(Type.String({ minLength: 1 })), flag: { flag: 'tls-cert', kind: 'string', defaultText: 'none', value: 'FILE', help: 'serve HTTPS with this PEM certificate (its chain may follow); needs --tls-key' } },
  /** PEM private key file of tlsCert. */
  tlsKey: { schema: Type.Optional(Type.String({ minLength: 1 })), flag: { flag: 'tls-key', kind: 'string', defaultText: 'none', value: 'FILE', help: 'the PEM private key of --tls-cert' } },
  /** Serve HTTPS with a certificate generated at start for localhost, 127.0.0.1, ::1, this machine's name and the host. */
  tlsSelfSigned: { schema: Type.Boolean(), flag: { flag: 'tls-self-signed', kind: 'switch', help: 'serve HTTPS with a certificate generated at start for localhost, 127.0.0.1 and the host' } },
  /** A fixture file or folder; in a fleet file, relative to it. Devices with the same one share its data. */
  fixtures: { schema: Type.Optional(Type.String({ minLength: 1 })), perDevice: true, flag: { flag: 'fixtures', kind: 'string', defaultText: 'bundled fixtures/', value: 'PATH', help: 'a fixture .json file, or a folder of them' }, notForProxy: TARGETS_OWN, notForMsw: 'a browser reads no files: data takes fixture data in memory' },
  /** Accepted bearer tokens; when none, any non-empty token is accepted. */
  tokens: { schema: Type.Optional(Type.Array(TokenSchema)), perDevice: true, flag: { flag: 'token', kind: 'list', defaultText: 'none', value: 'TOKEN', help: 'accept only this bearer token (repeatable); without it any non-empty token is accepted' }, notForProxy: TARGETS_OWN },
  /**
   * Tokens that see only some cameras: `{ token, cameras }` each, accepted even when `tokens` lists others; any
   * camera outside a token's list, known or not, is 403 for it. The same token twice sees the cameras of both.
   */
  scopedTokens: {
    schema: Type.Optional(ScopedTokensSchema),
    perDevice: true,
    flag: { flag: 'scoped-token', kind: 'scopes', defaultText: 'none', value: 'TOKEN:CAMERA_ID', help: 'accept this bearer token for this camera only (repeatable; the id is all after the first \':\'); other cameras are 403' },
    notForProxy: TARGETS_OWN,
    runTime: {
      value: ScopedTokensSchema,
      bodyIsTheValue: true,
      describe: {
        value: 'each token and the ids of the cameras it sees; [] for none',
        set: 'Replaces the scoped tokens: bearer tokens of the device API that see only some cameras (any other camera is 403 for them). Answers how many there are, never the tokens.',
        read: 'How many scoped tokens are in force (never the tokens themselves).'
      },
      logged: 'admin: scoped tokens replaced'
    }
  },
  /** Origins a browser may call from (scheme://host[:port]); when none, or only '*', any origin. */
  corsOrigins: { schema: Type.Optional(Type.Array(Type.String({ minLength: 1 }))), perDevice: true, flag: { flag: 'cors-origin', kind: 'list', defaultText: 'any origin', value: 'ORIGIN', help: "let only this origin call from a browser (repeatable): scheme://host[:port], or '*' for any" } },
  /** pino level, or silent. */
  logLevel: { schema: Type.Union([...LevelLiterals], { description: `one of ${LOG_LEVELS.slice(0, -1).join(', ')} or ${LOG_LEVELS.at(-1) as string}` }), flag: { flag: 'log-level', kind: 'string', value: 'LEVEL', help: LOG_LEVELS.join(', ') } },
  /** Human-readable logs instead of JSON lines. */
  prettyLogs: { schema: Type.Boolean(), flag: { flag: 'pretty-logs', kind: 'switch', defaultText: 'on when stdout is a terminal', help: 'human-readable logs instead of JSON lines' } },
  /** Seed of every random choice (generated data, delay ranges, drift), so a run can be repeated. */
  seed: { schema: Type.Optional(Type.Integer({ minimum: 0, maximum: 4294967295 })), perDevice: true, flag: { flag: 'seed', kind: 'integer', value: 'N', help: 'seed of every random choice (generated data, delay ranges), so a run can be repeated' } },
  /** Largest request line plus headers, in bytes; it also bounds how long an id in the path can be. */
  maxHeaderSize: { schema: Type.Integer({ minimum: 8192, maximum: 1048576 }), flag: { flag: 'max-header-size', kind: 'integer', value: 'BYTES', help: 'largest request line plus headers; longer requests get 431' } },
  /** Milliseconds a client has to send the request line and headers (a longer request time-out is shortened to it); 0 for no limit. */
  headersTimeout: { schema: Type.Integer({ minimum: 0, maximum: 3600000 }), flag: { flag: 'headers-timeout', kind: 'integer', value: 'MS', help: 'time to send the request line and headers; then 408 and the connection closes (0: no limit)' } },
  /** Milliseconds a client has to send a whole request, body included; 0 for no limit. */
  requestTimeout: { schema: Type.Integer({ minimum: 0, maximum: 3600000 }), flag: { flag: 'request-timeout', kind: 'integer', value: 'MS', help: 'time to send a whole request, body included; then 408 and the connection closes (0: no limit)' } },
  /** Milliseconds an idle keep-alive connection stays open. */
  keepAliveTimeout: { schema: Type.Integer({ minimum: 1, maximum: 3600000 }), flag: { flag: 'keep-alive-timeout', kind: 'integer', value: 'MS', help: 'how long an idle keep-alive connection stays open' } },
  /** Connections held at once; any more are closed unanswered. 0 for no cap. */
  maxConnections: { schema: Type.Integer({ minimum: 0, maximum: 1_000_000 }), flag: { flag: 'max-connections', kind: 'integer', value: 'N', help: 'connections held at once; any more are closed unanswered (0: no cap)' } },
  /** Reload the fixtures when they change on disk; a bad edit is logged and the last good data kept. */
  watch: { schema: Type.Boolean(), flag: { flag: 'watch', kind: 'switch', help: 'reload the fixtures when they change; a bad edit is logged and the last good data kept' }, notForProxy: TARGETS_OWN },
  /** Serve generated data instead of fixtures: cam-1 … cam-N, each with line-1 … line-M (see seed). */
  generate: { schema: Type.Optional(GenerateSchema), perDevice: true, flag: { flag: 'generate', kind: 'size', defaultText: 'none', value: 'CAMERASxLINES', help: 'serve generated data instead of fixtures: cam-1 … cam-N, each with line-1 … line-M (see --seed)' }, notForProxy: TARGETS_OWN, notForMsw: 'generateFixtureData makes data to pass as data' },
  /** Delay of every API request: milliseconds, or { min, max } for a random one (see seed); kept as a range once read. */
  latency: { schema: Type.Optional(LatencySchema), perDevice: true, flag: { flag: 'latency', kind: 'delay', defaultText: 'none', value: 'MS|MIN-MAX', help: 'delay every API request: 200 for a fixed delay, 100-800 for a random one (see --seed)' } },
  /** Let a request ask for its own fault with `Prefer: code=503` or `Prefer: delay=800`. */
  allowPrefer: { schema: Type.Boolean(), flag: { flag: 'allow-prefer', kind: 'switch', help: "let a request ask for its own fault: 'Prefer: code=503', 'Prefer: delay=800'" } },
  /** Bearer token of the admin API under /__admin/; without it the admin API is off. */
  adminToken: { schema: Type.Optional(TokenSchema), flag: { flag: 'admin-token', kind: 'string', defaultText: 'none, admin API off', value: 'TOKEN', help: 'turn the admin API on under /__admin/, for callers with this bearer token' } },
  /** Requests per second per token under /nvr/v1, as a token bucket with a burst as large; then 429. Off when absent. */
  rateLimit: {
    schema: Type.Optional(RateLimitSchema),
    perDevice: true,
    flag: { flag: 'rate-limit', kind: 'integer', defaultText: 'off', value: 'N', help: 'allow N API requests per second per token, in bursts of up to N; then 429 with Retry-After' },
    notForProxy: TARGETS_OWN,
    runTime: {
      value: Type.Union([RateLimitSchema, Type.Null()]),
      describe: {
        value: 'a whole number from 1 to 1000000, or null to turn the limit off',
        set: 'Sets the rate limit per token of the device API (requests per second, a burst of as many), or turns it off with null.',
        read: 'The rate limit in force: requests per second per token, or null when off.'
      },
      logged: 'admin: rate limit set'
    }
  },
  /** How many requests the journal keeps, the oldest dropped first; 0 keeps none. */
  journalSize: { schema: Type.Integer({ minimum: 0, maximum: 1_000_000 }), flag: { flag: 'journal-size', kind: 'integer', value: 'N', help: 'requests the journal keeps, the oldest dropped first; 0 keeps none' } },
  /** A JSON file of the device's schedule: { "health": a state, steps or a pattern, "drift": ms }, as health and drift. */
  schedule: { schema: Type.Optional(Type.String({ minLength: 1 })), flag: { flag: 'schedule', kind: 'string', defaultText: 'none, always online', value: 'FILE', help: 'a JSON file of the device\'s health over time and its drift: {"health": a state, steps or a pattern, "drift": MS}' } },
  /** Edit the data every this many milliseconds, seeded: a line renamed, moved, added or removed. */
  drift: { schema: Type.Optional(PositiveDuration), perDevice: true, flag: { flag: 'drift', kind: 'integer', defaultText: 'none', value: 'MS', help: 'edit the data every MS milliseconds, seeded (see --seed): a line renamed, moved, added or removed' }, notForMsw: 'drift edits the data on a schedule beside a server' },
  /** Its health over time: a state from the start, steps or a pattern (docs/device-health.md); online when absent. */
  health: { schema: Type.Optional(HealthOptionSchema), perDevice: true, noFlag: 'a flag cannot hold steps or a pattern: --schedule FILE carries the health, as a schedule file\'s field', notForMsw: 'health acts on a listening port, which the handlers have none of', verb: 'setHealth' },
  /** The device's one clock: the machine's, or a manual one that moves only when told (advance). */
  clock: { schema: Type.Union([Type.Literal('real'), Type.Literal('manual')], { description: '"real" or "manual"' }), flag: { flag: 'clock', kind: 'string', value: 'real|manual', help: 'the device\'s clock; manual moves only when told (POST /__admin/clock {"advance": MS}), and holds latency, delays, the rate limit\'s refill and the schedules' } },
  /** A fleet: this many devices, nvr-001 …, on port … port+N−1 (startMockFleet's count). */
  devices: { schema: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_FLEET_DEVICES })), flag: { flag: 'devices', kind: 'integer', defaultText: 'none, one device', value: 'N', help: 'start a fleet of N devices, nvr-001 …, on --port … --port+N-1 (see --generate, --seed)' }, notForProxy: ONE_DEVICE, fleet: true },
  /** A fleet: the devices a fleet file lists. */
  fleet: { schema: Type.Optional(Type.String({ minLength: 1 })), flag: { flag: 'fleet', kind: 'string', defaultText: 'none', value: 'FILE', help: 'start the fleet this JSON file lists: names, ports, data and tokens of each device' }, notForProxy: ONE_DEVICE, fleet: true },
  /** A fleet: the JSON file its devices' names, URLs and cameras are written to before it is ready. */
  manifest: { schema: Type.Optional(Type.String({ minLength: 1 })), flag: { flag: 'manifest', kind: 'string', defaultText: 'none', value: 'FILE', help: "with a fleet: write each device's name, URL and cameras to this JSON file before the ready line" }, notForProxy: ONE_DEVICE, fleet: true },
  /** A fleet: the port of its admin API and dashboard; port−1 by default, a free one under port 0. */
  controlPort: { schema: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })), flag: { flag: 'control-port', kind: 'integer', defaultText: '--port - 1, free under --port 0', value: 'PORT', help: "with a fleet: the port of the fleet's admin API and dashboard" }, notForProxy: ONE_DEVICE, fleet: true },
  /** A fleet: this share of its devices, chosen by the seed, is offline from the start. */
  offlineFraction: { schema: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })), flag: { flag: 'offline-fraction', kind: 'fraction', defaultText: '0', value: 'F', help: 'with a fleet: this share of the devices (0 to 1), chosen by --seed, is offline from the start' }, notForProxy: ONE_DEVICE, fleet: true },
  /** A fleet: this share of its devices, chosen by the seed, flaps (up 5 s, down 5 s, each at its own phase). */
  flappingFraction: { schema: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })), flag: { flag: 'flapping-fraction', kind: 'fraction', defaultText: '0', value: 'F', help: 'with a fleet: this share of the devices (0 to 1), chosen by --seed, flaps: up 5 s, down 5 s' }, notForProxy: ONE_DEVICE, fleet: true },
  /** A fleet: serve only its K-th of N slices of devices by index, 'K/N', with the whole fleet's names, ports, data and health. */
  shard: { schema: Type.Optional(ShardSchema), flag: { flag: 'shard', kind: 'string', defaultText: 'none, the whole fleet', value: 'K/N', help: "with a fleet: serve only the K-th of its N slices of devices, by index, as the whole fleet would (names, ports, data, health); each shard's --control-port differs on one machine" }, notForProxy: ONE_DEVICE, fleet: true },
  /** Data in memory, in the shape of a fixture file: the library's and the MSW handlers'. */
  data: { noFlag: 'data in memory is the library\'s: --fixtures names the files to serve', notForProxy: TARGETS_OWN, verb: 'use' },
} as const satisfies Readonly<Record<string, SettingRow>>

/** The key of a setting: an option's, or `data`. */
export type SettingKey = keyof typeof SETTINGS

type Rows = typeof SETTINGS

/** Each option's schema by its key, with its row's documentation: what options-schema.ts and device-settings.ts build on. */
export type OptionSchemas = { [Key in keyof Omit<Rows, 'data'>]: Rows[Key]['schema'] }

/** The keys of a device's own settings. */
export type DeviceSettingKey = { [Key in SettingKey]: Rows[Key] extends { perDevice: true } ? Key : never }[SettingKey]

/** The settings in the table's order, each with its row. */
export const SETTING_ROWS = Object.entries(SETTINGS) as ReadonlyArray<[SettingKey, SettingRow]>

/** The options that start a fleet rather than one device. */
export type FleetOption = { [Key in SettingKey]: typeof SETTINGS[Key] extends { fleet: true } ? Key : never }[SettingKey]
export const FLEET_OPTIONS = SETTING_ROWS.filter(([, row]) => row.fleet === true).map(([key]) => key) as readonly FleetOption[]

/** The settings a proxy refuses, each with why. */
export const NOT_FOR_PROXY: ReadonlyMap<SettingKey, string> = new Map(SETTING_ROWS.flatMap(([key, row]) => row.notForProxy === undefined ? [] : [[key, row.notForProxy]]))

/** The options' schemas, by key, in the table's order. */
export const OPTION_SCHEMAS = Object.fromEntries(SETTING_ROWS.flatMap(([key, row]) => row.schema === undefined ? [] : [[key, row.schema]])) as OptionSchemas

/** The settings a running device takes a new value of, in the table's order, each with how. */
export const RUN_TIME_SETTINGS = SETTING_ROWS.flatMap(([key, row]) => row.runTime === undefined ? [] : [[key, row.runTime] as const])

/** A run-time setting's verb on the handle: setRateLimit for rateLimit. */
export function setterOf (key: string): string {
  return `set${key.charAt(0).toUpperCase()}${key.slice(1)}`
}

/** A run-time setting's path below a device's /__admin: /rate-limit for rateLimit. */
export function adminPathOf (key: string): string {
  return `/${key.replaceAll(/[A-Z]/g, letter => `-${letter.toLowerCase()}`)}`
}

/** A device's own settings, in the table's order. */
export const DEVICE_SETTING_KEYS = SETTING_ROWS.filter(([, row]) => row.perDevice === true).map(([key]) => key) as DeviceSettingKey[]
