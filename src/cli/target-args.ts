import { parseMilliseconds } from './milliseconds.js'
import { UsageError } from '../errors/errors.js'
import { COMMAND_FLAGS } from './command-flags.js'
import { helpLines } from './flag-rows.js'
import { readFlags } from './read-flags.js'

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

/** The arguments after `mock-nvr verify` or `mock-nvr record`. */
export function parseTargetArgs (command: TargetCommandName, argv: readonly string[]): TargetArgs {
  const read = readFlags(argv, COMMAND_FLAGS[command])
  const unexpected = read.positionals[0]
  if (!read.help && unexpected !== undefined) throw new UsageError(`unexpected argument '${unexpected.value}'`)
  const values: Record<string, unknown> = Object.fromEntries(read.values)
  if (read.help) values.help = true
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
  if (typeof given !== 'string') throw new UsageError(`--${flag} ${value} is required`)
  return given
}

function optional (values: Record<string, unknown>, flag: string, key: 'ca' | 'junit' | 'token' | 'tokenFile'): Partial<TargetArgs> {
  const given = values[flag]
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
  return [...lines, '', ...helpLines(COMMAND_FLAGS[command].flags), ''].join('\n')
}
