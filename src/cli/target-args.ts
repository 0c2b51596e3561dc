import { parseArgs, type ParseArgsConfig } from 'node:util'
import { flagValue } from './args.js'
import { parseMilliseconds } from './milliseconds.js'
import { UsageError } from '../errors/errors.js'
import { helpLines, TARGET_LINK_FLAGS, type FlagTable } from './flag-rows.js'

export const TARGET_COMMANDS = ['verify', 'record'] as const
export type TargetCommandName = typeof TARGET_COMMANDS[number]

export function isTargetCommand (word: string | undefined): word is TargetCommandName {
  return (TARGET_COMMANDS as readonly string[]).includes(word as string)
}

/** A target command's flags, parsed and checked for presence; the values are checked where they are used. */
export interface TargetArgs {
  command: TargetCommandName
  help: boolean
  target?: string
  token?: string
  tokenFile?: string
  cameras: string[]
  timeout?: number
  runTimeout?: number
  ca?: string
  insecure: boolean
  json: boolean
  junit?: string
  strict: boolean
  out?: string
  force: boolean
}

const COMMON: FlagTable = {
  target: TARGET_LINK_FLAGS.target,
  token: { value: 'TOKEN', help: ['the bearer token the target accepts; never written to any output, log or file'] },
  'token-file': {
    value: 'FILE',
    help: ['read the token from FILE instead (one trailing newline dropped), so it stays out', 'of ps and shell history; or set MOCK_NVR_DEVICE_TOKEN. A flag beats the variable']
  },
  camera: { value: 'ID', multiple: true, help: ['a camera to read (repeatable): the API has no route that lists cameras'] },
  timeout: TARGET_LINK_FLAGS.timeout,
  'run-timeout': { value: 'MS', help: ['time the whole run may take (default: no limit)'] },
  ca: TARGET_LINK_FLAGS.ca,
  insecure: TARGET_LINK_FLAGS.insecure
}

const OWN: Record<TargetCommandName, FlagTable> = {
  verify: {
    json: { help: ['print the report as one JSON object, and nothing else, on stdout'] },
    junit: { value: 'FILE', help: ['also write the report as JUnit XML, for CI systems'] },
    strict: { help: ['differences from mock-nvr count as failures too'] }
  },
  record: {
    out: { value: 'FILE', help: ['the fixture file to write (atomically)'] },
    force: { help: ['replace FILE if it exists'] },
    json: { help: ['print the outcome (or the refusal report) as JSON on stdout'] }
  }
}

/** The arguments after `mock-nvr verify` or `mock-nvr record`. */
export function parseTargetArgs (command: TargetCommandName, argv: readonly string[]): TargetArgs {
  const flags: FlagTable = { help: { help: [] }, ...COMMON, ...OWN[command] }
  const allFlags = new Set(['-h', ...Object.keys(flags).map(name => `--${name}`)])
  const options: ParseArgsConfig['options'] = Object.fromEntries(Object.entries(flags).map(([name, flag]) =>
    [name, { type: flag.value === undefined ? 'boolean' : 'string', ...(name === 'help' ? { short: 'h' } : {}) }]))
  // Not strict: Node's own messages for unknown or value-less flags are replaced by the CLI's (args.ts).
  const { tokens } = parseArgs({ args: [...argv], strict: false, allowPositionals: true, tokens: true, options })
  const values: Record<string, string | true | string[]> = {}
  if (tokens.some(token => token.kind === 'option' && token.name === 'help')) values.help = true
  else {
    for (const token of tokens) {
      if (token.kind === 'positional') throw new UsageError(`unexpected argument '${token.value}'`)
      if (token.kind !== 'option') continue
      const flag = flags[token.name]
      if (flag === undefined) throw new UsageError(`unknown flag ${token.rawName}`)
      const value = flagValue(token, flag.value, allFlags)
      values[token.name] = flag.multiple === true ? [...(values[token.name] as string[] | undefined ?? []), value as string] : value
    }
  }
  const args: TargetArgs = {
    command,
    help: values.help === true,
    cameras: (values.camera as string[] | undefined) ?? [],
    insecure: values.insecure === true,
    json: values.json === true,
    strict: values.strict === true,
    force: values.force === true
  }
  if (args.help) return args
  const target = required(values, 'target', 'URL')
  // Which token source wins, and the file's reading, are readTargetToken's (target-token.ts).
  const token = optional(values, 'token', 'token')
  const tokenFile = optional(values, 'token-file', 'tokenFile')
  if (args.cameras.length === 0) throw new UsageError('--camera ID is required (repeatable): the API has no route that lists cameras')
  if (args.cameras.includes('')) throw new UsageError('--camera must not be empty')
  const out = command === 'record' ? required(values, 'out', 'FILE') : undefined
  return {
    ...args,
    target,
    ...token,
    ...tokenFile,
    ...milliseconds(values, 'timeout', 'timeout'),
    ...milliseconds(values, 'run-timeout', 'runTimeout'),
    ...optional(values, 'ca', 'ca'),
    ...optional(values, 'junit', 'junit'),
    ...(out === undefined ? {} : { out })
  }
}

function required (values: Record<string, unknown>, flag: string, value: string): string {
  const given = values[flag]
  if (typeof given !== 'string' || given === '') throw new UsageError(`--${flag} ${value} is required`)
  return given
}

function optional (values: Record<string, unknown>, flag: string, key: 'ca' | 'junit' | 'token' | 'tokenFile'): Partial<TargetArgs> {
  const given = values[flag]
  if (given === '') throw new UsageError(`--${flag} must not be empty`)
  return typeof given === 'string' ? { [key]: given } : {}
}

function milliseconds (values: Record<string, unknown>, flag: string, key: 'timeout' | 'runTimeout'): Partial<TargetArgs> {
  const text = values[flag] as string | undefined
  return text === undefined ? {} : { [key]: parseMilliseconds(flag, text) }
}

/** --help of a target command, from its table. */
export function targetHelpText (command: TargetCommandName): string {
  const lines = command === 'verify'
    ? [
        'Usage: mock-nvr verify --target URL --token TOKEN|--token-file FILE --camera ID [--camera ID …] [options]',
        '',
        'Checks the target, a real NVR (or any implementation of the API), against the contract, and lists where it',
        'answers the cases the spec leaves open otherwise than mock-nvr. Exit code: 0 no violation, 1 violations or',
        'an unusable target, 2 usage error.'
      ]
    : [
        'Usage: mock-nvr record --target URL --token TOKEN|--token-file FILE --camera ID [--camera ID …] --out FILE [options]',
        '',
        'Writes a fixture file from the target, a real NVR: every camera named, its lines in the target\'s order, as',
        'sent. All or nothing: a target that breaks the contract is reported as verify does, and nothing is written.',
        'Exit code: 0 written, 1 refused or failed, 2 usage error.'
      ]
  return [...lines, '', ...helpLines(COMMON), ...helpLines(OWN[command]), '  -h, --help            show this help', ''].join('\n')
}
