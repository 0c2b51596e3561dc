import { LOG_LEVELS, type GivenOptions } from './options-schema.js'

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
 * One setting, declared once beside its schema (options-schema.ts, device-settings.ts): its flag, or why it has
 * none, and each surface that does not take it, with why; a surface takes a setting whose row gives no reason.
 */
export interface SettingRow {
  flag?: SettingFlag
  /** Why no flag can give it. */
  noFlag?: string
  /** Why a proxy refuses it. */
  notForProxy?: string
  /** Why the MSW handlers do not take it (a device setting a browser cannot act on). */
  notForMsw?: string
  /** It starts a fleet: startMockNvr refuses it, and a fleet's devices do not each take it. */
  fleet?: true
  /** The handle's verb that changes it while the device runs (the admin API's and the MCP tool's too: admin-api/verbs.ts). */
  verb?: string
}

const TARGETS_OWN = 'the target\'s data and tokens are used'
const ONE_DEVICE = 'a proxy is one device, forwarding to one target'

/**
 * Every setting of mock-nvr, in the order --help lists them: the CLI's flags and twins, the proxy's refusals, the
 * options that start a fleet and the MSW handlers' options follow from these rows, and a test holds every surface
 * to them (test/config/surfaces.batched.test.ts).
 */
export const SETTINGS = {
  port: { flag: { flag: 'port', kind: 'integer', value: 'PORT', help: 'TCP port to listen on; 0 picks a free port' } },
  host: { flag: { flag: 'host', kind: 'string', value: 'HOST', help: 'interface to listen on; 0.0.0.0 for every interface' } },
  tlsCert: { flag: { flag: 'tls-cert', kind: 'string', defaultText: 'none', value: 'FILE', help: 'serve HTTPS with this PEM certificate (its chain may follow); needs --tls-key' } },
  tlsKey: { flag: { flag: 'tls-key', kind: 'string', defaultText: 'none', value: 'FILE', help: 'the PEM private key of --tls-cert' } },
  tlsSelfSigned: { flag: { flag: 'tls-self-signed', kind: 'switch', help: 'serve HTTPS with a certificate generated at start for localhost, 127.0.0.1 and the host' } },
  fixtures: { flag: { flag: 'fixtures', kind: 'string', defaultText: 'bundled fixtures/', value: 'PATH', help: 'a fixture .json file, or a folder of them' }, notForProxy: TARGETS_OWN, notForMsw: 'a browser reads no files: data takes fixture data in memory' },
  tokens: { flag: { flag: 'token', kind: 'list', defaultText: 'none', value: 'TOKEN', help: 'accept only this bearer token (repeatable); without it any non-empty token is accepted' }, notForProxy: TARGETS_OWN },
  scopedTokens: { flag: { flag: 'scoped-token', kind: 'scopes', defaultText: 'none', value: 'TOKEN:CAMERA_ID', help: 'accept this bearer token for this camera only (repeatable; the id is all after the first \':\'); other cameras are 403' }, notForProxy: TARGETS_OWN, verb: 'setScopedTokens' },
  corsOrigins: { flag: { flag: 'cors-origin', kind: 'list', defaultText: 'any origin', value: 'ORIGIN', help: "let only this origin call from a browser (repeatable): scheme://host[:port], or '*' for any" } },
  logLevel: { flag: { flag: 'log-level', kind: 'string', value: 'LEVEL', help: LOG_LEVELS.join(', ') } },
  prettyLogs: { flag: { flag: 'pretty-logs', kind: 'switch', defaultText: 'on when stdout is a terminal', help: 'human-readable logs instead of JSON lines' } },
  seed: { flag: { flag: 'seed', kind: 'integer', value: 'N', help: 'seed of every random choice (generated data, delay ranges), so a run can be repeated' } },
  maxHeaderSize: { flag: { flag: 'max-header-size', kind: 'integer', value: 'BYTES', help: 'largest request line plus headers; longer requests get 431' } },
  headersTimeout: { flag: { flag: 'headers-timeout', kind: 'integer', value: 'MS', help: 'time to send the request line and headers; then 408 and the connection closes (0: no limit)' } },
  requestTimeout: { flag: { flag: 'request-timeout', kind: 'integer', value: 'MS', help: 'time to send a whole request, body included; then 408 and the connection closes (0: no limit)' } },
  keepAliveTimeout: { flag: { flag: 'keep-alive-timeout', kind: 'integer', value: 'MS', help: 'how long an idle keep-alive connection stays open' } },
  maxConnections: { flag: { flag: 'max-connections', kind: 'integer', value: 'N', help: 'connections held at once; any more are closed unanswered (0: no cap)' } },
  watch: { flag: { flag: 'watch', kind: 'switch', help: 'reload the fixtures when they change; a bad edit is logged and the last good data kept' }, notForProxy: TARGETS_OWN },
  generate: { flag: { flag: 'generate', kind: 'size', defaultText: 'none', value: 'CAMERASxLINES', help: 'serve generated data instead of fixtures: cam-1 … cam-N, each with line-1 … line-M (see --seed)' }, notForProxy: TARGETS_OWN, notForMsw: 'generateFixtureData makes data to pass as data' },
  latency: { flag: { flag: 'latency', kind: 'delay', defaultText: 'none', value: 'MS|MIN-MAX', help: 'delay every API request: 200 for a fixed delay, 100-800 for a random one (see --seed)' } },
  allowPrefer: { flag: { flag: 'allow-prefer', kind: 'switch', help: "let a request ask for its own fault: 'Prefer: code=503', 'Prefer: delay=800'" } },
  adminToken: { flag: { flag: 'admin-token', kind: 'string', defaultText: 'none, admin API off', value: 'TOKEN', help: 'turn the admin API on under /__admin/, for callers with this bearer token' } },
  rateLimit: { flag: { flag: 'rate-limit', kind: 'integer', defaultText: 'off', value: 'N', help: 'allow N API requests per second per token, in bursts of up to N; then 429 with Retry-After' }, notForProxy: TARGETS_OWN, verb: 'setRateLimit' },
  journalSize: { flag: { flag: 'journal-size', kind: 'integer', value: 'N', help: 'requests the journal keeps, the oldest dropped first; 0 keeps none' } },
  schedule: { flag: { flag: 'schedule', kind: 'string', defaultText: 'none, always online', value: 'FILE', help: 'a JSON file of the device\'s health over time and its drift: {"health": a state, steps or a pattern, "drift": MS}' } },
  drift: { flag: { flag: 'drift', kind: 'integer', defaultText: 'none', value: 'MS', help: 'edit the data every MS milliseconds, seeded (see --seed): a line renamed, moved, added or removed' }, notForMsw: 'drift edits the data on a schedule beside a server' },
  health: { noFlag: 'a flag cannot hold steps or a pattern: --schedule FILE carries the health, as a schedule file\'s field', notForMsw: 'health acts on a listening port, which the handlers have none of', verb: 'setHealth' },
  clock: { flag: { flag: 'clock', kind: 'string', value: 'real|manual', help: 'the device\'s clock; manual moves only when told (POST /__admin/clock {"advance": MS}), and holds latency, delays, the rate limit\'s refill and the schedules' } },
  devices: { flag: { flag: 'devices', kind: 'integer', defaultText: 'none, one device', value: 'N', help: 'start a fleet of N devices, nvr-001 …, on --port … --port+N-1 (see --generate, --seed)' }, notForProxy: ONE_DEVICE, fleet: true },
  fleet: { flag: { flag: 'fleet', kind: 'string', defaultText: 'none', value: 'FILE', help: 'start the fleet this JSON file lists: names, ports, data and tokens of each device' }, notForProxy: ONE_DEVICE, fleet: true },
  manifest: { flag: { flag: 'manifest', kind: 'string', defaultText: 'none', value: 'FILE', help: "with a fleet: write each device's name, URL and cameras to this JSON file before the ready line" }, notForProxy: ONE_DEVICE, fleet: true },
  controlPort: { flag: { flag: 'control-port', kind: 'integer', defaultText: '--port - 1, free under --port 0', value: 'PORT', help: "with a fleet: the port of the fleet's admin API and dashboard" }, notForProxy: ONE_DEVICE, fleet: true },
  offlineFraction: { flag: { flag: 'offline-fraction', kind: 'fraction', defaultText: '0', value: 'F', help: 'with a fleet: this share of the devices (0 to 1), chosen by --seed, is offline from the start' }, notForProxy: ONE_DEVICE, fleet: true },
  flappingFraction: { flag: { flag: 'flapping-fraction', kind: 'fraction', defaultText: '0', value: 'F', help: 'with a fleet: this share of the devices (0 to 1), chosen by --seed, flaps: up 5 s, down 5 s' }, notForProxy: ONE_DEVICE, fleet: true },
  shard: { flag: { flag: 'shard', kind: 'string', defaultText: 'none, the whole fleet', value: 'K/N', help: "with a fleet: serve only the K-th of its N slices of devices, by index, as the whole fleet would (names, ports, data, health); each shard's --control-port differs on one machine" }, notForProxy: ONE_DEVICE, fleet: true },
  data: { noFlag: 'data in memory is the library\'s: --fixtures names the files to serve', notForProxy: TARGETS_OWN, verb: 'use' },
} as const satisfies { readonly [Key in keyof GivenOptions | 'data']-?: SettingRow }

/** The key of a setting: an option's, or `data`. */
export type SettingKey = keyof typeof SETTINGS

/** The settings in the table's order, each with its row. */
export const SETTING_ROWS = Object.entries(SETTINGS) as ReadonlyArray<[SettingKey, SettingRow]>

/** The options that start a fleet rather than one device. */
export type FleetOption = { [Key in SettingKey]: typeof SETTINGS[Key] extends { fleet: true } ? Key : never }[SettingKey]
export const FLEET_OPTIONS = SETTING_ROWS.filter(([, row]) => row.fleet === true).map(([key]) => key) as readonly FleetOption[]

/** The settings a proxy refuses, each with why. */
export const NOT_FOR_PROXY: ReadonlyMap<SettingKey, string> = new Map(SETTING_ROWS.flatMap(([key, row]) => row.notForProxy === undefined ? [] : [[key, row.notForProxy]]))
