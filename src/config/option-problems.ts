import type { TypeCheck } from '@sinclair/typebox/compiler'
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors'
import type { TSchema } from '@sinclair/typebox'
import { toDelayRange, type Delay } from '../util/delay.js'
import { ANY_ORIGIN, describeNonOrigin } from '../wire/origin.js'
import { parseGenerateSize } from '../data/generate-size.js'
import { problemsOfHealth } from '../health/health-spec.js'
import { shardProblem } from './shard.js'
import { describeValueError, notGiven, quoteJson, valueErrors, type ValueProblem } from '../util/value-errors.js'
import { unknownFieldMessage } from '../util/closest-name.js'
import { OptionsError } from '../errors/errors.js'

/**
 * One thing wrong with the options. The sentence is put together by the caller's naming: a library caller
 * reads the option keys it passed (`option port`), a CLI user the flag or variable they typed (`--port`).
 */
export interface OptionsProblem {
  /** The options at fault, by key; the sentence is about the first. */
  keys: readonly string[]
  /** Where in the first option's value, as a JSON Pointer: '' for the whole value, '/1' for a list's second item. */
  path: string
  /** The sentence, given a name for each key and a way to quote a value. */
  sentence: (names: readonly string[], quote: (value: unknown) => string) => string
  /** For a problem of one value: what follows its name, as a file's problem at its JSON path says it. */
  detail?: (quote: (value: unknown) => string) => string
}

/** What options are checked for once their schema passes: a problem of theirs, or undefined. */
export type OptionsCheck<T> = (options: T) => OptionsProblem | undefined

/**
 * Every problem of the options: the schema's, one per JSON path; then, for the options the schema passed, what it
 * cannot say of one value (a range's order, a size's text, a health, origins); then, when there is no other,
 * `combination`'s (options that go, or never go, together). No Node built-in here: the MSW handlers check their
 * options with it in a browser.
 */
export function listOptionsProblems<T extends object> (check: TypeCheck<TSchema>, options: T, combination?: OptionsCheck<T>): OptionsProblem[] {
  const problems = schemaProblems(check, options)
  problems.push(...valueProblems(options as Record<string, unknown>, new Set(problems.map(problem => problem.keys[0] as string))))
  const combined = problems.length === 0 ? combination?.(options) : undefined
  return combined === undefined ? problems : [combined]
}

/** The first problem of the options (listOptionsProblems), undefined when there is none. */
export function findOptionsProblem<T extends object> (check: TypeCheck<TSchema>, options: T, combination?: OptionsCheck<T>): OptionsProblem | undefined {
  return listOptionsProblems(check, options, combination)[0]
}

/**
 * The problems of the settings at `/key/index`, a fleet's device, beyond its schema's: named under `key` (option
 * devices[2].latency, or /devices/2/latency in a file). `wrong` are its fields the schema refused already.
 */
export function nestedValueProblems (settings: Record<string, unknown>, key: string, index: number, wrong: ReadonlySet<string>): OptionsProblem[] {
  return valueProblems(settings, wrong).map(problem => ({ ...problem, keys: [key, ...problem.keys.slice(1)], path: `/${index}/${problem.keys[0] as string}${problem.path}` }))
}

/** The error of these problems, one line each, each option named by its key as the caller passed it. */
export function optionsError (problems: OptionsProblem | readonly OptionsProblem[]): OptionsError {
  return new OptionsError([problems].flat().map(describeForLibrary).join('\n'))
}

// "option port", "option generate.cameras", "option corsOrigins[1]".
function describeForLibrary ({ keys, path, sentence }: OptionsProblem): string {
  const where = path.split('/').slice(1).map(part => /^\d+$/.test(part) ? `[${part}]` : `.${part}`).join('')
  return sentence(keys.map((key, index) => `option ${key}${index === 0 ? where : ''}`), quoteJson)
}

// Options that were once taken, with what replaced them.
const RETIRED_OPTIONS: Readonly<Record<string, string>> = {
  now: ": the rate limit reads the device's one clock; give clock: 'manual' and move it with clock.advance(ms)"
}

function schemaProblem (error: ValueError): OptionsProblem {
  const [, key = '', ...rest] = error.path.split('/')
  const path = rest.map(part => `/${part}`).join('')
  if (error.type === ValueErrorType.ObjectAdditionalProperties) {
    // At the top, an option nobody offers; deeper (a fleet's device), a field of it.
    // The same words as a fixture file's and an admin body's, the closest known key with them.
    const message = unknownFieldMessage(error.path, error.schema)
    if (rest.length === 0) {
      const retired = RETIRED_OPTIONS[key]
      const known = retired === undefined ? message.replace('a known field', 'known') : `is not known${retired}`
      // A file never took a retired option: there it is a field like any other it does not know.
      return { keys: [key], path: '', sentence: ([name]) => `${name as string} ${known}`, detail: () => message }
    }
    return fieldProblem(key, path, message)
  }
  // In the words of every file and body (util/value-errors.ts), never quoting a token.
  const { message, shown } = describeValueError(error)
  return fieldProblem(key, path, message, shown)
}

/** A problem of one option's value: "NAME must be …, not VALUE" (notGiven), the value left out when undefined. */
export function fieldProblem (key: string, path: string, message: string, value?: unknown, hint?: string): OptionsProblem {
  const detail = (quote: (value: unknown) => string): string => `${notGiven(message, value, quote)}${hint === undefined ? '' : `; ${hint}`}`
  return { keys: [key], path, sentence: ([name], quote) => `${name as string} ${detail(quote)}`, detail }
}

/** Every problem TypeBox finds in options, one per JSON path, each as the options' checks word it. */
export function schemaProblems (check: TypeCheck<TSchema>, value: unknown): OptionsProblem[] {
  return valueErrors(check, value).map(schemaProblem)
}

// What the schema cannot say of one value: a range's order, a size's text, a health's shape, origins that never match,
// a shard's numbers.
function valueProblems (options: Record<string, unknown>, wrong: ReadonlySet<string>): OptionsProblem[] {
  const given = (key: string): boolean => options[key] !== undefined && !wrong.has(key)
  const problems: OptionsProblem[] = []
  const range = given('latency') ? toDelayRange(options.latency as Delay) : undefined
  if (typeof range === 'string') problems.push(fieldProblem('latency', '', range))
  const size = given('generate') && typeof options.generate === 'string' ? parseGenerateSize(options.generate) : undefined
  if (typeof size === 'string') problems.push(fieldProblem('generate', '', size))
  if (given('health')) problems.push(...problemsOfHealth(options.health).map(({ path, message }) => fieldProblem('health', path, message)))
  const origin = given('corsOrigins') ? originProblem(options.corsOrigins as readonly string[]) : undefined
  if (origin !== undefined) problems.push(origin)
  const slice = given('shard') ? shardProblem(options.shard as string) : undefined
  if (slice !== undefined) problems.push(fieldProblem('shard', '', slice, options.shard))
  return problems
}

function originProblem (origins: readonly string[]): OptionsProblem | undefined {
  for (const [index, origin] of origins.entries()) {
    if (origin === ANY_ORIGIN) {
      if (origins.length === 1) continue
      return fieldProblem('corsOrigins', `/${index}`, `takes '${ANY_ORIGIN}' (any origin) alone, not with other origins`)
    }
    const problem = describeNonOrigin(origin)
    if (problem !== undefined) {
      return fieldProblem('corsOrigins', `/${index}`, problem.problem, origin, problem.suggestion === undefined ? undefined : `did you mean '${problem.suggestion}'?`)
    }
  }
  return undefined
}

/** A problem as a file's problem: the JSON path of the first key, and what is wrong there, values quoted as JSON. */
export function asFileProblem ({ keys, path, detail }: OptionsProblem): ValueProblem {
  // Every problem a file can hold is one value's (fieldProblem, or a field not known), which has its detail.
  return { path: `/${keys[0] as string}${path}`, message: (detail as NonNullable<typeof detail>)(quoteJson) }
}

/** A problem of two options given together, or one given without the other. */
export function together (keys: [string, string], sentence: (first: string, second: string) => string): OptionsProblem {
  return { keys, path: '', sentence: ([first, second]) => sentence(first as string, second as string) }
}
