import { parseArgs } from 'node:util'
import { UsageError } from '../errors/errors.js'
import { commandsTaking, type CommandFlags } from './command-flags.js'
import { closestName } from '../util/closest-name.js'
import type { FlagRow } from './flag-rows.js'

/** A flag's value as given: its text, true for a switch, every text of a repeatable flag. */
export type FlagValue = string | true | string[]

/** A command line read by its command's table. */
export interface ReadFlags {
  help: boolean
  version: boolean
  /** By flag name, as the table spells it. */
  values: ReadonlyMap<string, FlagValue>
  /** The words that are no flag's, with their place in argv. */
  positionals: Array<{ value: string, index: number }>
}

type Token = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number]
type FlagToken = Extract<Token, { kind: 'option' }>

/**
 * The one reader of every command's flags. Node's parseArgs splits argv (not strict: its messages are replaced by
 * these); the command's table decides what is a flag, what takes a value and what repeats. A flag that no command
 * has, one that another command has, a missing, misplaced or empty value: each is a usage error naming the flag.
 */
export function readFlags (argv: readonly string[], command: CommandFlags): ReadFlags {
  const options = {
    help: { type: 'boolean' as const, short: 'h' },
    ...(command.version === true ? { version: { type: 'boolean' as const, short: 'v' } } : {}),
    ...Object.fromEntries(Object.entries(command.flags).map(([flag, row]) => [flag, { type: row.value === undefined ? 'boolean' as const : 'string' as const }]))
  }
  const tokens = tokensOf(argv, options)
  const given = (name: string) => tokens.some(token => token.kind === 'option' && token.name === name)
  const read: ReadFlags = { help: given('help'), version: given('version') && command.version === true, values: new Map(), positionals: [] }
  // --help and --version answer whatever else the line holds.
  if (read.help || read.version) return read
  const values = read.values as Map<string, FlagValue>
  const typed = new Set(['-h', '--help', ...(command.version === true ? ['-v', '--version'] : []), ...[...Object.keys(command.flags), ...Object.keys(command.refused ?? {})].map(flag => `--${flag}`)])
  for (const token of tokens) {
    if (token.kind === 'positional') read.positionals.push({ value: token.value, index: token.index })
    if (token.kind !== 'option') continue
    const row = command.flags[token.name]
    if (row === undefined) throw notTaken(token, command)
    const value = flagValue(token, row, typed)
    if (row.multiple !== true) values.set(token.name, value)
    else values.set(token.name, [...(values.get(token.name) as string[] | undefined ?? []), repeatedValue(token.rawName, row, value as string)])
  }
  return read
}

/**
 * The last value typed for each of these flags, read leniently whatever else the line holds: a line whose flags
 * were refused can still name the files it gives, so a run reports their problems too.
 */
export function typedValues (argv: readonly string[], flags: readonly string[]): Record<string, string | undefined> {
  const values: Record<string, string | undefined> = {}
  for (const token of tokensOf(argv, Object.fromEntries(flags.map(flag => [flag, { type: 'string' as const }])))) {
    if (token.kind === 'option' && flags.includes(token.name) && typeof token.value === 'string') values[token.name] = token.value
  }
  return values
}

// Node's parseArgs splits argv, not strict: the tables decide what a flag is, and these messages replace its own.
function tokensOf (argv: readonly string[], options: NonNullable<Parameters<typeof parseArgs>[0]>['options']): Token[] {
  return parseArgs({ args: [...argv], strict: false, allowPositionals: true, tokens: true, options }).tokens
}

/**
 * The value given to a known flag, refused when it is missing, misplaced or empty; true for a switch. `typed` are
 * the command's flags as typed (`--port`, `-h`): one of them where a value goes is a forgotten value.
 */
function flagValue (token: FlagToken, row: FlagRow, typed: ReadonlySet<string>): string | true {
  const flag = token.rawName
  if (row.value === undefined) {
    if (token.value !== undefined) throw new UsageError(`${flag} takes no value: give ${flag} to turn it on, leave it out for off`)
    return true
  }
  const value = token.value
  if (value === undefined) throw new UsageError(`${flag} needs a value: ${flag} ${row.value}`)
  // `--host --port 80` is a forgotten value, not a host named --port; `--port -1` is a value, and checked as one.
  if (!token.inlineValue && typed.has(value.split('=')[0] as string)) throw new UsageError(`${flag} needs a value, but ${value} follows it`)
  if (value === '') throw new UsageError(`${flag} is empty: give it a value${row.default === undefined ? '' : `, or leave it out (default: ${row.default})`}`)
  return value
}

// A comma is how a repeatable flag's twin separates values; on the flag it is a list given the wrong way.
function repeatedValue (flag: string, row: FlagRow, value: string): string {
  if (row.twin !== undefined && value.includes(',')) throw new UsageError(`${flag} takes one value, without commas: give ${flag} once for each`)
  return value
}

// A flag this command does not take: refused with its reason, named as another command's, or unknown (with the
// closest of this command's flags when one is close).
function notTaken (token: FlagToken, command: CommandFlags): UsageError {
  const flag = token.rawName
  const reason = command.refused?.[token.name]
  if (reason !== undefined) return new UsageError(`${flag} does not apply to ${command.name}: ${reason}`)
  const others = token.rawName.startsWith('--') ? commandsTaking(token.name) : []
  if (others.length > 0) return new UsageError(`${flag} does not apply to ${command.name}: it is a flag of ${others.join(', ').replace(/, ([^,]+)$/u, ' and $1')}`)
  const closest = closestName(token.name, Object.keys(command.flags))
  return new UsageError(token.rawName.startsWith('--') && closest !== undefined ? `unknown flag ${flag}: did you mean --${closest}?` : `unknown flag ${flag}`)
}
