import { LIBRARY_DEFAULTS } from '../config/options.js'
import { LOG_LEVELS, type ResolvedOptions } from '../config/options-schema.js'
import type { FlagRow, FlagTable } from './flag-rows.js'

export type OptionKind = 'integer' | 'fraction' | 'string' | 'list' | 'scopes' | 'switch' | 'size' | 'delay'

export interface CliOption {
  flag: string
  key: keyof ResolvedOptions
  kind: OptionKind
  /** The default in words, for an option whose default is not a value (none, any origin); the others show the code's own. */
  defaultText?: string
  value?: string
  help: string
}

/** Every flag of the CLI; parsing, environment twins and --help all come from this table. */
export const CLI_OPTIONS: readonly CliOption[] = [
  { flag: 'port', key: 'port', kind: 'integer', value: 'PORT', help: 'TCP port to listen on; 0 picks a free port' },
  { flag: 'host', key: 'host', kind: 'string', value: 'HOST', help: 'interface to listen on; 0.0.0.0 for every interface' },
  { flag: 'tls-cert', key: 'tlsCert', kind: 'string', defaultText: 'none', value: 'FILE', help: 'serve HTTPS with this PEM certificate (its chain may follow); needs --tls-key' },
  { flag: 'tls-key', key: 'tlsKey', kind: 'string', defaultText: 'none', value: 'FILE', help: 'the PEM private key of --tls-cert' },
  { flag: 'tls-self-signed', key: 'tlsSelfSigned', kind: 'switch', help: 'serve HTTPS with a certificate generated at start for localhost, 127.0.0.1 and the host' },
  { flag: 'fixtures', key: 'fixtures', kind: 'string', defaultText: 'bundled fixtures/', value: 'PATH', help: 'a fixture .json file, or a folder of them' },
  { flag: 'token', key: 'tokens', kind: 'list', defaultText: 'none', value: 'TOKEN', help: 'accept only this bearer token (repeatable); without it any non-empty token is accepted' },
  { flag: 'scoped-token', key: 'scopedTokens', kind: 'scopes', defaultText: 'none', value: 'TOKEN:CAMERA_ID', help: 'accept this bearer token for this camera only (repeatable; the id is all after the first \':\'); other cameras are 403' },
  { flag: 'cors-origin', key: 'corsOrigins', kind: 'list', defaultText: 'any origin', value: 'ORIGIN', help: "let only this origin call from a browser (repeatable): scheme://host[:port], or '*' for any" },
  { flag: 'log-level', key: 'logLevel', kind: 'string', value: 'LEVEL', help: LOG_LEVELS.join(', ') },
  { flag: 'pretty-logs', key: 'prettyLogs', kind: 'switch', defaultText: 'on when stdout is a terminal', help: 'human-readable logs instead of JSON lines' },
  { flag: 'seed', key: 'seed', kind: 'integer', value: 'N', help: 'seed of every random choice (generated data, delay ranges), so a run can be repeated' },
  { flag: 'max-header-size', key: 'maxHeaderSize', kind: 'integer', value: 'BYTES', help: 'largest request line plus headers; longer requests get 431' },
  { flag: 'headers-timeout', key: 'headersTimeout', kind: 'integer', value: 'MS', help: 'time to send the request line and headers; then 408 and the connection closes (0: no limit)' },
  { flag: 'request-timeout', key: 'requestTimeout', kind: 'integer', value: 'MS', help: 'time to send a whole request, body included; then 408 and the connection closes (0: no limit)' },
  { flag: 'keep-alive-timeout', key: 'keepAliveTimeout', kind: 'integer', value: 'MS', help: 'how long an idle keep-alive connection stays open' },
  { flag: 'max-connections', key: 'maxConnections', kind: 'integer', value: 'N', help: 'connections held at once; any more are closed unanswered (0: no cap)' },
  { flag: 'watch', key: 'watch', kind: 'switch', help: 'reload the fixtures when they change; a bad edit is logged and the last good data kept' },
  { flag: 'generate', key: 'generate', kind: 'size', defaultText: 'none', value: 'CAMERASxLINES', help: 'serve generated data instead of fixtures: cam-1 … cam-N, each with line-1 … line-M (see --seed)' },
  { flag: 'latency', key: 'latency', kind: 'delay', defaultText: 'none', value: 'MS|MIN-MAX', help: 'delay every API request: 200 for a fixed delay, 100-800 for a random one (see --seed)' },
  { flag: 'allow-prefer', key: 'allowPrefer', kind: 'switch', help: "let a request ask for its own fault: 'Prefer: code=503', 'Prefer: delay=800'" },
  { flag: 'admin-token', key: 'adminToken', kind: 'string', defaultText: 'none, admin API off', value: 'TOKEN', help: 'turn the admin API on under /__admin/, for callers with this bearer token' },
  { flag: 'rate-limit', key: 'rateLimit', kind: 'integer', defaultText: 'off', value: 'N', help: 'allow N API requests per second per token, in bursts of up to N; then 429 with Retry-After' },
  { flag: 'journal-size', key: 'journalSize', kind: 'integer', value: 'N', help: 'requests the journal keeps, the oldest dropped first; 0 keeps none' },
  { flag: 'schedule', key: 'schedule', kind: 'string', defaultText: 'none, always online', value: 'FILE', help: 'a JSON file of the device\'s health over time and its drift: {"health": a state, steps or a pattern, "drift": MS}' },
  { flag: 'drift', key: 'drift', kind: 'integer', defaultText: 'none', value: 'MS', help: 'edit the data every MS milliseconds, seeded (see --seed): a line renamed, moved, added or removed' },
  { flag: 'clock', key: 'clock', kind: 'string', value: 'real|manual', help: 'the schedules\' clock; manual moves only when told: POST /__admin/clock {"advance": MS}' },
  { flag: 'devices', key: 'devices', kind: 'integer', defaultText: 'none, one device', value: 'N', help: 'start a fleet of N devices, nvr-001 …, on --port … --port+N-1 (see --generate, --seed)' },
  { flag: 'fleet', key: 'fleet', kind: 'string', defaultText: 'none', value: 'FILE', help: 'start the fleet this JSON file lists: names, ports, data and tokens of each device' },
  { flag: 'manifest', key: 'manifest', kind: 'string', defaultText: 'none', value: 'FILE', help: "with a fleet: write each device's name, URL and cameras to this JSON file before the ready line" },
  { flag: 'control-port', key: 'controlPort', kind: 'integer', defaultText: '--port - 1, free under --port 0', value: 'PORT', help: "with a fleet: the port of the fleet's admin API and dashboard" },
  { flag: 'offline-fraction', key: 'offlineFraction', kind: 'fraction', defaultText: '0', value: 'F', help: 'with a fleet: this share of the devices (0 to 1), chosen by --seed, is offline from the start' },
  { flag: 'flapping-fraction', key: 'flappingFraction', kind: 'fraction', defaultText: '0', value: 'F', help: 'with a fleet: this share of the devices (0 to 1), chosen by --seed, flaps: up 5 s, down 5 s' },
  { flag: 'shard', key: 'shard', kind: 'string', defaultText: 'none, the whole fleet', value: 'K/N', help: "with a fleet: serve only the K-th of its N slices of devices, by index, as the whole fleet would (names, ports, data, health); each shard's --control-port differs on one machine" }
]

/** The CLI's own defaults where they differ from the library's: a fixed port and info logs. */
export const CLI_DEFAULTS: Partial<ResolvedOptions> = { port: 8080, logLevel: 'info' }
export const DEFAULTS: ResolvedOptions = { ...LIBRARY_DEFAULTS, ...CLI_DEFAULTS }

/** The default --help and the README show: the value the code uses, or its words for it. */
export function shownDefault (option: CliOption): string {
  if (option.defaultText !== undefined) return option.defaultText
  // A switch's flag can only turn it on, so every switch is off by default (test/config/options.batched.test.ts checks).
  if (option.kind === 'switch') return 'off'
  return String(DEFAULTS[option.key])
}

/** MOCK_NVR_ + the flag in upper snake case; a repeatable flag's twin is plural and comma-separated. */
export function envName ({ flag, kind }: CliOption): string {
  return `MOCK_NVR_${flag.toUpperCase().replaceAll('-', '_')}${repeatable(kind) ? 'S' : ''}`
}

export function repeatable (kind: OptionKind): boolean {
  return kind === 'list' || kind === 'scopes'
}

/** A serve flag as a row of its command's table: its help line carries its default, and its twin is named. */
function serveRow (option: CliOption): FlagRow {
  return {
    ...(option.kind === 'switch' ? {} : { value: option.value as string }),
    ...(repeatable(option.kind) ? { multiple: true } : {}),
    help: [`${option.help} (default: ${shownDefault(option)})`],
    default: shownDefault(option),
    twin: envName(option)
  }
}

/** Serving's flags, as every command's table has them. */
export const SERVE_FLAGS: FlagTable = Object.fromEntries(CLI_OPTIONS.map(option => [option.flag, serveRow(option)]))

/** The serve flags that decide the data `mock-nvr openapi` takes its examples from: the only ones it takes. */
export const OPENAPI_FLAGS: FlagTable = Object.fromEntries(['fixtures', 'generate', 'seed'].map(flag => [flag, SERVE_FLAGS[flag] as FlagRow]))
