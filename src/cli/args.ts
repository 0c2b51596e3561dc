import { parseArgs } from 'node:util'
import type { TInteger } from '@sinclair/typebox'
import { parseDelay } from '../util/delay.js'
import { parseGenerateSize } from '../data/generate-size.js'
import type { ScopedToken } from '../contract/schemas.js'
import { findProblems, LIBRARY_DEFAULTS } from '../config/options.js'
import { editDistance } from './edit-distance.js'
import { LOG_LEVELS, OptionsSchema, type ResolvedOptions } from '../config/options-schema.js'
import { UsageError } from '../errors/errors.js'

type OptionKind = 'integer' | 'fraction' | 'string' | 'list' | 'scopes' | 'switch' | 'size' | 'delay'

interface CliOption {
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
const CLI_DEFAULTS: Partial<ResolvedOptions> = { port: 8080, logLevel: 'info' }
const DEFAULTS: ResolvedOptions = { ...LIBRARY_DEFAULTS, ...CLI_DEFAULTS }

/** The default --help and the README show: the value the code uses, or its words for it. */
export function shownDefault (option: CliOption): string {
  if (option.defaultText !== undefined) return option.defaultText
  // A switch's flag can only turn it on, so every switch is off by default (test/config/options.batched.test.ts checks).
  if (option.kind === 'switch') return 'off'
  return String(DEFAULTS[option.key])
}

/** The words that may come first: mock-nvr's commands besides serving, which is the default. */
export const COMMANDS = ['openapi', 'verify', 'record', 'proxy'] as const

/**
 * The refusal of a word where a command goes, with the closest command when one is close: `mock-nvr verfy
 * --target x` is a misspelt command, whatever flags follow it.
 */
export function unknownCommand (word: string): string {
  const [closest, distance] = COMMANDS.map(command => [command, editDistance(word, command)] as const).reduce((best, next) => next[1] < best[1] ? next : best)
  const list = `(the commands are ${COMMANDS.join(', ')}; serving needs none)`
  return distance <= 2 ? `unknown command '${word}' ${list}: did you mean ${closest}?` : `unknown command '${word}' ${list}`
}

export type CliCommand =
  | { command: 'help' }
  | { command: 'version' }
  | { command: 'serve', options: Partial<ResolvedOptions> }
  | { command: 'openapi', options: Partial<ResolvedOptions> }

/** MOCK_NVR_ + the flag in upper snake case; a repeatable flag's twin is plural and comma-separated. */
export function envName ({ flag, kind }: CliOption): string {
  return `MOCK_NVR_${flag.toUpperCase().replaceAll('-', '_')}${repeatable(kind) ? 'S' : ''}`
}

function repeatable (kind: OptionKind): boolean {
  return kind === 'list' || kind === 'scopes'
}

const BY_FLAG = new Map(CLI_OPTIONS.map(option => [option.flag, option]))
const BY_KEY = new Map<string, CliOption>(CLI_OPTIONS.map(option => [option.key, option]))
const PARSE_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  ...Object.fromEntries(CLI_OPTIONS.map(option => [option.flag, {
    type: option.kind === 'switch' ? 'boolean' : 'string',
    multiple: repeatable(option.kind)
  }]))
} as const
const ALL_FLAGS = new Set(['-h', '--help', '-v', '--version', ...CLI_OPTIONS.map(option => `--${option.flag}`)])

type Token = ReturnType<typeof parseArgs>['tokens'] extends (infer T)[] | undefined ? T : never
/** A flag as parseArgs found it, without strict checks: `--port`, `--port 80`, `--port=80`. */
export type FlagToken = Extract<Token, { kind: 'option' }>
type FlagValue = string | string[] | true

/** argv and environment to options: a flag beats its twin, which beats the default. */
export function parseCli (argv: readonly string[], env: NodeJS.ProcessEnv): CliCommand {
  // Not strict: Node's own messages for unknown or value-less flags are replaced by the ones below.
  const { tokens } = parseArgs({ args: [...argv], strict: false, allowPositionals: true, tokens: true, options: PARSE_OPTIONS })
  const given = (name: string) => tokens.some(token => token.kind === 'option' && token.name === name)
  if (given('help')) return { command: 'help' }
  if (given('version')) return { command: 'version' }
  const flags = readFlags(tokens)
  const positionals = tokens.flatMap(token => token.kind === 'positional' ? [token.value] : [])
  // The one sub-command, `openapi`, takes the same options: they decide the data its examples come from.
  const command = positionals[0] === 'openapi' ? 'openapi' : 'serve'
  const unexpected = positionals[command === 'openapi' ? 1 : 0]
  // A word where a command goes never gets here: runCommandLine has named it as an unknown command.
  if (unexpected !== undefined) throw new UsageError(`unexpected argument '${unexpected}'`)

  const options: Record<string, unknown> = { ...CLI_DEFAULTS }
  // Each option set, by key: the flag or variable it came from, which is what a message calls it.
  const sources = new Map<string, string>()
  // Every value that cannot be read, then every problem of the options read: all of them in one run.
  const unreadable: string[] = []
  for (const option of CLI_OPTIONS) {
    const fromFlag = flags.get(option.flag)
    const variable = envName(option)
    const fromEnv = env[variable]
    if (fromFlag === undefined && fromEnv === undefined) continue
    const source = fromFlag === undefined ? variable : `--${option.flag}`
    sources.set(option.key, source)
    try {
      options[option.key] = convert(option, fromFlag ?? readVariable(option, variable, fromEnv as string), source)
    } catch (error) {
      unreadable.push((error as UsageError).message)
    }
  }
  // The library's own checks, in the user's words: what they set by the name they used, anything else by its flag.
  const problems = findProblems({ ...DEFAULTS, ...options }).map(problem =>
    problem.sentence(problem.keys.map(key => sources.get(key) ?? `--${(BY_KEY.get(key) as CliOption).flag}`), value => `'${String(value)}'`))
  const messages = [...unreadable, ...problems]
  if (messages.length > 0) throw new UsageError(messages.join('\n'))
  return { command, options }
}

/** Where a serve option came from, for a message about its value: its flag when argv has it, else its variable. */
export function givenBy (argv: readonly string[], flag: string): string {
  const { tokens } = parseArgs({ args: [...argv], strict: false, allowPositionals: true, tokens: true, options: PARSE_OPTIONS })
  return tokens.some(token => token.kind === 'option' && token.name === flag) ? `--${flag}` : envName(BY_FLAG.get(flag) as CliOption)
}

function readFlags (tokens: readonly Token[]): Map<string, FlagValue> {
  const flags = new Map<string, FlagValue>()
  for (const token of tokens) {
    if (token.kind !== 'option') continue
    const option = BY_FLAG.get(token.name)
    const flag = token.rawName
    if (option === undefined) throw new UsageError(`unknown flag ${flag}`)
    const value = flagValue(token, option.kind === 'switch' ? undefined : option.value as string, ALL_FLAGS)
    if (value === true) {
      flags.set(option.flag, true)
      continue
    }
    if (value === '') throw new UsageError(`${flag} is empty: give it a value, or leave it out (default: ${shownDefault(option)})`)
    if (!repeatable(option.kind)) {
      flags.set(option.flag, value)
      continue
    }
    // A comma is how the twin separates values; on a flag it is a list given the wrong way.
    if (value.includes(',')) throw new UsageError(`${flag} takes one value, without commas: give ${flag} once for each`)
    flags.set(option.flag, [...(flags.get(option.flag) as string[] | undefined ?? []), value])
  }
  return flags
}

/**
 * The value given to a known flag, refused in the CLI's words when it is missing or misplaced; true for a switch
 * (no `placeholder`). `allFlags` are the command's flags as typed (`--port`, `-h`).
 */
export function flagValue (token: FlagToken, placeholder: string | undefined, allFlags: ReadonlySet<string>): string | true {
  const flag = token.rawName
  if (placeholder === undefined) {
    if (token.value !== undefined) throw new UsageError(`${flag} takes no value: give ${flag} to turn it on, leave it out for off`)
    return true
  }
  const value = token.value
  if (value === undefined) throw new UsageError(`${flag} needs a value: ${flag} ${placeholder}`)
  // `--host --port 80` is a forgotten value, not a host named --port; `--port -1` is a value, and checked as one.
  if (!token.inlineValue && allFlags.has(value.split('=')[0] as string)) throw new UsageError(`${flag} needs a value, but ${value} follows it`)
  return value
}

// A variable that is set but empty is a secret or a value that did not resolve, not a wish for the default.
function readVariable (option: CliOption, name: string, text: string): string | string[] {
  const unset = `give it a value, or unset it (default: ${shownDefault(option)})`
  if (text === '') throw new UsageError(`${name} is set but empty: ${unset}`)
  if (!repeatable(option.kind)) return text
  const items = text.split(',').map(item => item.trim())
  if (items.every(item => item === '')) throw new UsageError(`${name} holds only commas and spaces: ${unset}`)
  const empty = items.indexOf('')
  if (empty !== -1) throw new UsageError(`${name} has an empty entry (entry ${empty + 1} of ${items.length}): separate values with single commas`)
  return items
}

function convert (option: CliOption, raw: FlagValue, source: string): unknown {
  switch (option.kind) {
    case 'switch': return raw === true ? raw : parseSwitch(raw as string, source)
    case 'size': {
      const size = parseGenerateSize(raw as string)
      if (typeof size === 'string') throw new UsageError(`${source} ${size}`)
      return size
    }
    case 'delay': {
      const range = parseDelay(raw as string)
      if (typeof range === 'string') throw new UsageError(`${source} ${range}`)
      return range
    }
    case 'fraction': {
      const text = raw as string
      // Out-of-range values are left to the options' check.
      if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text)
      throw new UsageError(`${source} must be a number from 0 to 1, like 0.25, not '${text}'`)
    }
    case 'scopes': return parseScopedTokens(raw as string[], source)
    case 'integer': {
      const text = raw as string
      // Out-of-range numbers are left to the options' check; beyond 15 digits a number is no longer exact.
      if (/^-?\d{1,15}$/.test(text)) return Number(text)
      const { minimum, maximum } = OptionsSchema.properties[option.key] as TInteger
      throw new UsageError(`${source} must be a whole number from ${String(minimum)} to ${String(maximum)}, not '${text}'`)
    }
    default: return raw
  }
}

// TOKEN:CAMERA_ID, the id being everything after the first ':'. A message never quotes the value: it holds a token.
function parseScopedTokens (values: readonly string[], source: string): ScopedToken[] {
  return values.map((value, index) => {
    const which = values.length === 1 ? '' : ` (value ${index + 1} of ${values.length})`
    const colon = value.indexOf(':')
    if (colon === -1) throw new UsageError(`${source} must be TOKEN:CAMERA_ID, with a ':' between the token and the camera id${which}`)
    if (colon === 0) throw new UsageError(`${source} has an empty token before the ':'${which}`)
    if (colon === value.length - 1) throw new UsageError(`${source} has an empty camera id after the ':'${which}`)
    return { token: value.slice(0, colon), cameras: [value.slice(colon + 1)] }
  })
}

function parseSwitch (text: string, source: string): boolean {
  const normalized = text.toLowerCase()
  if (normalized === 'true' || normalized === '1') return true
  if (normalized === 'false' || normalized === '0') return false
  throw new UsageError(`${source} must be true, false, 1 or 0, not '${text}'`)
}

export function helpText (version: string): string {
  const rows = CLI_OPTIONS.map(option => {
    const name = `--${option.flag}${option.value === undefined ? '' : ` ${option.value}`}`
    // A name longer than the column still gets a space before its help.
    return `  ${name.padEnd(25)} ${option.help} (default: ${shownDefault(option)})\n  ${''.padEnd(26)}env: ${envName(option)}`
  })
  return [
    `mock-nvr ${version}: a stand-in NVR serving the Counting Lines Read API from fixtures`,
    '',
    'Usage: mock-nvr [options]            serve the API',
    '       mock-nvr openapi [options]    print the OpenAPI document, with examples from the data the options',
    '                                     select, and exit',
    '       mock-nvr verify --help        check a real NVR, the target, against the contract (docs/target-link.md)',
    '       mock-nvr record --help        record the target into a fixture file',
    '       mock-nvr proxy --help         forward the API to the target, checking its answers',
    '',
    'Options:',
    ...rows,
    `  ${'-h, --help'.padEnd(26)}show this help`,
    `  ${'-v, --version'.padEnd(26)}print the version`,
    ''
  ].join('\n')
}
