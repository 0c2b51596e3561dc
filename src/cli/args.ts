import { parseArgs } from 'node:util'
import { parseDelay } from '../util/delay.js'
import { parseGenerateSize } from '../data/generate-size.js'
import { LOG_LEVELS, type ResolvedOptions } from '../config/options.js'

type OptionKind = 'integer' | 'string' | 'list' | 'switch' | 'size' | 'delay'

interface CliOption {
  flag: string
  key: keyof ResolvedOptions
  kind: OptionKind
  /** What --help shows as the default; undefined means none. */
  default?: string
  value?: string
  help: string
}

/** Every flag of the CLI; parsing, environment twins and --help all come from this table. */
export const CLI_OPTIONS: readonly CliOption[] = [
  { flag: 'port', key: 'port', kind: 'integer', default: '8080', value: 'PORT', help: 'TCP port to listen on; 0 picks a free port' },
  { flag: 'host', key: 'host', kind: 'string', default: '127.0.0.1', value: 'HOST', help: 'interface to listen on; 0.0.0.0 for every interface' },
  { flag: 'tls-cert', key: 'tlsCert', kind: 'string', value: 'FILE', help: 'serve HTTPS with this PEM certificate (its chain may follow); needs --tls-key' },
  { flag: 'tls-key', key: 'tlsKey', kind: 'string', value: 'FILE', help: 'the PEM private key of --tls-cert' },
  { flag: 'tls-self-signed', key: 'tlsSelfSigned', kind: 'switch', default: 'off', help: 'serve HTTPS with a certificate generated at start for localhost, 127.0.0.1 and the host' },
  { flag: 'fixtures', key: 'fixtures', kind: 'string', default: 'the bundled fixtures/', value: 'PATH', help: 'a fixture .json file, or a folder of them' },
  { flag: 'token', key: 'tokens', kind: 'list', value: 'TOKEN', help: 'accept only this bearer token (repeatable); without it any non-empty token is accepted' },
  { flag: 'cors-origin', key: 'corsOrigins', kind: 'list', value: 'ORIGIN', help: 'let only this origin call from a browser (repeatable); without it any origin may' },
  { flag: 'log-level', key: 'logLevel', kind: 'string', default: 'info', value: 'LEVEL', help: LOG_LEVELS.join(', ') },
  { flag: 'pretty-logs', key: 'prettyLogs', kind: 'switch', default: 'on when stdout is a terminal', help: 'human-readable logs instead of JSON lines' },
  { flag: 'seed', key: 'seed', kind: 'integer', default: '1', value: 'N', help: 'seed of every random choice (generated data, delay ranges), so a run can be repeated' },
  { flag: 'max-header-size', key: 'maxHeaderSize', kind: 'integer', default: '65536', value: 'BYTES', help: 'largest request line plus headers; longer requests get 431' },
  { flag: 'headers-timeout', key: 'headersTimeout', kind: 'integer', default: '10000', value: 'MS', help: 'time to send the request line and headers; then 408 and the connection closes (0: no limit)' },
  { flag: 'request-timeout', key: 'requestTimeout', kind: 'integer', default: '30000', value: 'MS', help: 'time to send a whole request, body included; then 408 and the connection closes (0: no limit)' },
  { flag: 'keep-alive-timeout', key: 'keepAliveTimeout', kind: 'integer', default: '72000', value: 'MS', help: 'how long an idle keep-alive connection stays open' },
  { flag: 'max-connections', key: 'maxConnections', kind: 'integer', default: '1000', value: 'N', help: 'connections held at once; any more are closed unanswered (0: no cap)' },
  { flag: 'watch', key: 'watch', kind: 'switch', default: 'off', help: 'reload the fixtures when they change; a bad edit is logged and the last good data kept' },
  { flag: 'generate', key: 'generate', kind: 'size', value: 'CAMERASxLINES', help: 'serve generated data instead of fixtures: cam-1 … cam-N, each with line-1 … line-M (see --seed)' },
  { flag: 'latency', key: 'latency', kind: 'delay', value: 'MS|MIN-MAX', help: 'delay every API request: 200 for a fixed delay, 100-800 for a random one (see --seed)' },
  { flag: 'allow-prefer', key: 'allowPrefer', kind: 'switch', default: 'off', help: "let a request ask for its own fault: 'Prefer: code=503', 'Prefer: delay=800'" },
  { flag: 'admin-token', key: 'adminToken', kind: 'string', value: 'TOKEN', help: 'turn the admin API on under /__admin/, for callers with this bearer token' },
  { flag: 'journal-size', key: 'journalSize', kind: 'integer', default: '1000', value: 'N', help: 'requests the journal keeps, the oldest dropped first; 0 keeps none' }
]

const CLI_DEFAULTS: Partial<ResolvedOptions> = { port: 8080, logLevel: 'info' }

export type CliCommand =
  | { command: 'help' }
  | { command: 'version' }
  | { command: 'serve', options: Partial<ResolvedOptions> }
  | { command: 'openapi', options: Partial<ResolvedOptions> }

/** A mistake in how the CLI was called; the CLI prints it and exits with code 2. */
export class UsageError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

/** MOCK_NVR_ + the flag in upper snake case; a repeatable flag's twin is plural and comma-separated. */
export function envName ({ flag, kind }: CliOption): string {
  return `MOCK_NVR_${flag.toUpperCase().replaceAll('-', '_')}${kind === 'list' ? 'S' : ''}`
}

/** argv and environment to options: a flag beats its twin, which beats the default. */
export function parseCli (argv: readonly string[], env: NodeJS.ProcessEnv): CliCommand {
  let values: Record<string, string | boolean | string[] | undefined>
  let positionals: string[]
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        ...Object.fromEntries(CLI_OPTIONS.map(option => [option.flag, {
          type: option.kind === 'switch' ? 'boolean' as const : 'string' as const,
          multiple: option.kind === 'list'
        }]))
      }
    }))
  } catch (error) {
    // Node adds advice about positional arguments to unknown options; the first sentence is the point.
    throw new UsageError((error as Error).message.split('. ')[0] as string)
  }
  if (values.help === true) return { command: 'help' }
  if (values.version === true) return { command: 'version' }
  // The one sub-command, `openapi`, takes the same options: they decide the data its examples come from.
  const command = positionals[0] === 'openapi' ? 'openapi' : 'serve'
  const unexpected = positionals[command === 'openapi' ? 1 : 0]
  if (unexpected !== undefined) throw new UsageError(`unexpected argument '${unexpected}'`)

  const options: Record<string, unknown> = { ...CLI_DEFAULTS }
  for (const option of CLI_OPTIONS) {
    const fromFlag = values[option.flag] as string | string[] | boolean | undefined
    const fromEnv = env[envName(option)]
    if (fromFlag !== undefined) {
      options[option.key] = convert(option, fromFlag, `--${option.flag}`)
    } else if (fromEnv !== undefined && fromEnv !== '') {
      options[option.key] = convert(option, option.kind === 'list' ? fromEnv.split(',').map(item => item.trim()).filter(item => item !== '') : fromEnv, envName(option))
    }
  }
  checkExclusive(options, values)
  return { command, options }
}

// Checked here too, not only by startMockNvr, so the message names the flag or variable the user set.
function checkExclusive (options: Record<string, unknown>, values: Record<string, unknown>): void {
  const setBy = (key: keyof ResolvedOptions) => {
    const option = CLI_OPTIONS.find(candidate => candidate.key === key) as CliOption
    return values[option.flag] === undefined ? envName(option) : `--${option.flag}`
  }
  if (options.generate === undefined) return
  if (options.fixtures !== undefined) throw new UsageError(`${setBy('generate')} cannot be combined with ${setBy('fixtures')}: generated data is served instead of fixtures`)
  if (options.watch === true) throw new UsageError(`${setBy('watch')} cannot be combined with ${setBy('generate')}: only fixture files can be watched`)
}

function convert (option: CliOption, raw: string | string[] | boolean, source: string): unknown {
  switch (option.kind) {
    case 'list': return raw
    case 'switch': return typeof raw === 'boolean' ? raw : parseSwitch(raw as string, source)
    case 'size': {
      const size = parseGenerateSize(raw as string)
      if (typeof size === 'string') throw new UsageError(`${source} ${size}`)
      return size
    }
    case 'delay': {
      const range = parseDelay(raw as string)
      if (typeof range === 'string') throw new UsageError(`${source} ${range}`)
      return range.min === range.max ? range.min : range
    }
    case 'integer': {
      const text = raw as string
      if (!/^\d+$/.test(text)) throw new UsageError(`${source} must be a whole number, not '${text}'`)
      return Number(text)
    }
    default: return raw
  }
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
    const suffix = option.default === undefined ? '' : ` (default: ${option.default})`
    return `  ${name.padEnd(26)}${option.help}${suffix}\n  ${''.padEnd(26)}env: ${envName(option)}`
  })
  return [
    `mock-nvr ${version}: a stand-in NVR serving the Counting Lines Read API from fixtures`,
    '',
    'Usage: mock-nvr [options]            serve the API',
    '       mock-nvr openapi [options]    print the OpenAPI document, with examples from the data the options',
    '                                     select, and exit',
    '       mock-nvr verify --help        check a real device against the contract (docs/device-link.md)',
    '       mock-nvr record --help        record a real device into a fixture file',
    '       mock-nvr proxy --help         forward the API to a real device, checking its answers',
    '',
    'Options:',
    ...rows,
    `  ${'-h, --help'.padEnd(26)}show this help`,
    `  ${'-v, --version'.padEnd(26)}print the version`,
    ''
  ].join('\n')
}
