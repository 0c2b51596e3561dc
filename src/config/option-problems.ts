import type { TypeCheck } from '@sinclair/typebox/compiler'
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors'
import type { TSchema } from '@sinclair/typebox'
import { toDelayRange, type Delay } from '../util/delay.js'
import { ANY_ORIGIN, describeNonOrigin } from '../wire/origin.js'
import { TOKEN_RULE } from '../util/token-characters.js'
import { THROWN_ERROR_CODES } from '../errors/catalogue.js'
import { MockNvrError } from '../errors/errors.js'

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
}

/** Options whose values never appear in a message. */
export const SECRET_OPTIONS: ReadonlySet<string> = new Set(['tokens', 'scopedTokens', 'adminToken'])

/** What options are checked for once their schema passes: a problem of theirs, or undefined. */
export type OptionsCheck<T> = (options: T) => OptionsProblem | undefined

/**
 * The first problem of the options, undefined when there is none: the schema's checks first, then what it cannot
 * say of one value (a range's order, origins), then `combination` (options that go, or never go, together).
 * No Node built-in here: the MSW handlers check their options with it in a browser.
 */
export function findOptionsProblem<T extends object> (check: TypeCheck<TSchema>, options: T, combination?: OptionsCheck<T>): OptionsProblem | undefined {
  const error = check.Errors(options).First()
  if (error !== undefined) return schemaProblem(error)
  return valueProblem(options) ?? combination?.(options)
}

/** Options that cannot be used; the message names each option by its key, as the caller passed it. */
export class OptionsError extends MockNvrError {
  constructor (messageOrProblem: string | OptionsProblem) {
    super(THROWN_ERROR_CODES.OptionsError, typeof messageOrProblem === 'string' ? messageOrProblem : describeForLibrary(messageOrProblem))
    this.name = 'OptionsError'
  }
}

// "option port", "option generate.cameras", "option corsOrigins[1]".
function describeForLibrary ({ keys, path, sentence }: OptionsProblem): string {
  const where = path.split('/').slice(1).map(part => /^\d+$/.test(part) ? `[${part}]` : `.${part}`).join('')
  return sentence(keys.map((key, index) => `option ${key}${index === 0 ? where : ''}`), value => JSON.stringify(value))
}

function schemaProblem (error: ValueError): OptionsProblem {
  const [, key = '', ...rest] = error.path.split('/')
  const path = rest.map(part => `/${part}`).join('')
  if (error.type === ValueErrorType.ObjectAdditionalProperties) {
    return { keys: [key], path: '', sentence: ([name]) => `${name as string} is not known` }
  }
  const message = describeSchemaError(error)
  const shown = SECRET_OPTIONS.has(key) || error.type === ValueErrorType.StringMinLength ? undefined : error.value
  return fieldProblem(key, path, message, shown)
}

/** A problem of one option's value: "NAME must be …, not VALUE", the value left out when undefined. */
export function fieldProblem (key: string, path: string, message: string, value?: unknown, hint?: string): OptionsProblem {
  return {
    keys: [key],
    path,
    sentence: ([name], quote) => `${name as string} ${message}${value === undefined ? '' : `, not ${quote(value)}`}${hint === undefined ? '' : `; ${hint}`}`
  }
}

function describeSchemaError ({ type, schema }: ValueError): string {
  switch (type) {
    case ValueErrorType.Integer:
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.IntegerMaximum: return `must be a whole number from ${String(schema.minimum)} to ${String(schema.maximum)}`
    case ValueErrorType.Number:
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.NumberMaximum: return `must be a number from ${String(schema.minimum)} to ${String(schema.maximum)}`
    case ValueErrorType.String: return 'must be a string'
    case ValueErrorType.StringMinLength: return 'must not be empty'
    // The options' one pattern: a token's.
    case ValueErrorType.StringPattern: return TOKEN_RULE
    case ValueErrorType.Boolean: return 'must be true or false'
    case ValueErrorType.Array: return 'must be an array of strings'
    case ValueErrorType.Object: return 'must be an object'
    case ValueErrorType.ObjectRequiredProperty: return 'is missing'
    // A union's own description says what it takes; its members' errors would each tell only half.
    case ValueErrorType.Union: return `must be ${String(schema.description)}`
    /* c8 ignore next: the options' schema uses no other kind of check */
    default: return `is invalid: ${type}`
  }
}

// What the schema cannot say of one value: a range's order, and origins that would never match.
function valueProblem ({ latency, corsOrigins }: { latency?: Delay, corsOrigins?: readonly string[] }): OptionsProblem | undefined {
  const range = latency === undefined ? undefined : toDelayRange(latency)
  if (typeof range === 'string') return fieldProblem('latency', '', range)
  return corsOrigins === undefined ? undefined : originProblem(corsOrigins)
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

/** A problem of two options given together, or one given without the other. */
export function together (keys: [string, string], sentence: (first: string, second: string) => string): OptionsProblem {
  return { keys, path: '', sentence: ([first, second]) => sentence(first as string, second as string) }
}
