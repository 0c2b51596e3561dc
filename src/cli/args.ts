import type { TInteger } from '@sinclair/typebox'
import { parseDelay } from '../util/delay.js'
import { parseGenerateSize } from '../data/generate-size.js'
import type { ScopedToken } from '../contract/schemas.js'
import { findProblems } from '../config/options.js'
import { editDistance } from '../util/closest-name.js'
import { OptionsSchema, type ResolvedOptions } from '../config/options-schema.js'
import { UsageError } from '../errors/errors.js'
import { COMMAND_FLAGS, type CommandFlags } from './command-flags.js'
import { HELP_LINE, helpLines } from './flag-rows.js'
import { readFlags, type FlagValue } from './read-flags.js'
import { CLI_DEFAULTS, CLI_OPTIONS, DEFAULTS, envName, OPENAPI_FLAGS, repeatable, SERVE_FLAGS, shownDefault, type CliOption } from './serve-flags.js'

/** The words that may come first: mock-nvr's commands besides serving, which is the default. */
export const COMMANDS = ['openapi', 'verify', 'record', 'proxy', 'mcp'] as const

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

const BY_KEY = new Map<string, CliOption>(CLI_OPTIONS.map(option => [option.key, option]))

/** argv and environment to options: a flag beats its twin, which beats the default. */
export function parseCli (argv: readonly string[], env: NodeJS.ProcessEnv): CliCommand {
  const serving = readFlags(argv, COMMAND_FLAGS.serve)
  if (serving.help) return { command: 'help' }
  if (serving.version) return { command: 'version' }
  // `openapi` may come after serving's flags too (`--generate 2x3 openapi`); its own table then reads the rest.
  const word = serving.positionals[0]
  if (word?.value !== 'openapi') {
    // A word where a command goes never gets here: runCommandLine has named it as an unknown command.
    if (word !== undefined) throw new UsageError(`unexpected argument '${word.value}'`)
    return { command: 'serve', options: serveOptions(serving.values, env, COMMAND_FLAGS.serve) }
  }
  const openapi = readFlags(argv.filter((_, index) => index !== word.index), COMMAND_FLAGS.openapi)
  const unexpected = openapi.positionals[0]
  if (unexpected !== undefined) throw new UsageError(`unexpected argument '${unexpected.value}'`)
  return { command: 'openapi', options: serveOptions(openapi.values, env, COMMAND_FLAGS.openapi) }
}

/**
 * The serve options a command's flags and their twins give, checked whole: every value that cannot be read, then
 * every problem of the options read, all in one run. Only the twins of the command's own flags are read; the twin
 * of a flag it refuses is refused in the same words.
 */
export function serveOptions (values: ReadonlyMap<string, FlagValue>, env: NodeJS.ProcessEnv, command: CommandFlags): Partial<ResolvedOptions> {
  const options: Record<string, unknown> = { ...CLI_DEFAULTS }
  // Each option set, by key: the flag or variable it came from, which is what a message calls it.
  const sources = new Map<string, string>()
  const unreadable: string[] = []
  for (const option of CLI_OPTIONS) {
    const variable = envName(option)
    const fromEnv = env[variable]
    const reason = command.refused?.[option.flag]
    // A switch's twin set off, MOCK_NVR_WATCH=false, asks for nothing.
    if (reason !== undefined && fromEnv !== undefined && !(option.kind === 'switch' && /^(false|0)$/iu.test(fromEnv))) unreadable.push(`${variable} does not apply to ${command.name}: ${reason}`)
    if (!Object.hasOwn(command.flags, option.flag)) continue
    const fromFlag = values.get(option.flag)
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
  return options
}

/** Where a serve option came from, for a message about its value: its flag when argv has it, else its variable. */
export function givenBy (argv: readonly string[], flag: string): string {
  const typed = `--${flag}`
  return argv.some(arg => arg === typed || arg.startsWith(`${typed}=`)) ? typed : envName(CLI_OPTIONS.find(option => option.flag === flag) as CliOption)
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
  return [
    `mock-nvr ${version}: a stand-in NVR serving the Counting Lines Read API from fixtures`,
    '',
    'Usage: mock-nvr [options]            serve the API',
    '       mock-nvr openapi [options]    print the OpenAPI document, with examples from the data the options',
    `                                     select (${Object.keys(OPENAPI_FLAGS).map(flag => `--${flag}`).join(', ')}), and exit`,
    '       mock-nvr verify --help        check a real NVR, the target, against the contract (docs/target-link.md)',
    '       mock-nvr record --help        record the target into a fixture file',
    '       mock-nvr proxy --help         forward the API to the target, checking its answers',
    '       mock-nvr mcp --help           speak the Model Context Protocol on stdin/stdout for a coding agent (docs/agents.md)',
    '',
    'Options:',
    ...helpLines(SERVE_FLAGS, [HELP_LINE, ['-v, --version', 'print the version']]),
    ''
  ].join('\n')
}
