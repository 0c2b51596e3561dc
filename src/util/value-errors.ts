import type { TSchema } from '@sinclair/typebox'
import type { TypeCheck } from '@sinclair/typebox/compiler'
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors'
import { Value } from '@sinclair/typebox/value'
import { TOKEN_PATTERN, TOKEN_RULE } from './token-characters.js'
import { TIMESTAMP_PATTERN, TIMESTAMP_RULE } from './timestamp-pattern.js'
import { unknownFieldMessage } from './closest-name.js'

/** One thing wrong in a value: where (a JSON Pointer, '' for the whole value) and what. */
export interface ValueProblem {
  path: string
  message: string
}

/**
 * What a value the schema refused is told, in every file and body the user writes (fleet file, schedule file,
 * fixtures, admin bodies, the options of the library): what it must be, and what was given, as
 * "must be a whole number from 1 to 1000000, not "fast"". The given value is left out where it is a secret's or
 * says nothing more (shownValue).
 */
export interface ValueErrorWords {
  /** What it must be: "must be a whole number from 1 to 1000000", "is missing", "is not a known field". */
  message: string
  /** The value to quote after it (notGiven), undefined when none is shown. */
  shown: unknown
}

/** Every problem TypeBox finds, one per JSON path, each in a few plain words and the value given (notGiven). */
export function listValueProblems<T extends TSchema> (check: TypeCheck<T>, value: unknown): ValueProblem[] {
  return valueErrors(check, value).map(error => {
    const { message, shown } = describeValueError(error)
    return { path: error.path, message: notGiven(message, shown) }
  })
}

/**
 * The errors TypeBox finds, the first at each JSON path: TypeBox may report one spot twice (a missing field is also
 * "not a string"), and the first is the clearest. An object given to a union that takes one object form (generate's
 * { cameras, linesPerCamera }) gets that form's own first error, which says more than the union's description.
 */
export function valueErrors<T extends TSchema> (check: TypeCheck<T>, value: unknown): ValueError[] {
  const errors: ValueError[] = []
  const seenPaths = new Set<string>()
  for (const error of check.Errors(value)) {
    if (seenPaths.has(error.path)) continue
    seenPaths.add(error.path)
    errors.push(objectMemberError(error) ?? error)
  }
  return errors
}

function objectMemberError (error: ValueError): ValueError | undefined {
  if (error.type !== ValueErrorType.Union || typeof error.value !== 'object' || error.value === null) return undefined
  const member = (error.schema.anyOf as TSchema[]).find(schema => schema.type === 'object')
  if (member === undefined) return undefined
  // The union refused the value, so its object form refuses it too.
  const inner = Value.Errors(member, error.value).First() as ValueError
  return { ...inner, path: `${error.path}${inner.path}` }
}

/** "/delay/min: must be at least 0", or the message alone for the whole value. */
export function formatValueProblem ({ path, message }: ValueProblem): string {
  return path === '' ? message : `${path}: ${message}`
}

/** One error in the words of every surface: what the value must be, and the value to quote, if any. */
export function describeValueError (error: ValueError): ValueErrorWords {
  return { message: wanted(error), shown: shownValue(error) }
}

/** Longest quote of a given value, so a problem stays one short line whatever was given. */
const QUOTE_LENGTH = 60

/**
 * What a problem's message says after what is wanted: ", not VALUE", the value as JSON (or as `quote` puts it: a
 * flag's text), cut at 60 characters; the message alone when the value is not shown (undefined).
 */
export function notGiven (message: string, shown: unknown, quote: (value: unknown) => string = quoteJson): string {
  if (shown === undefined) return message
  const quoted = quote(shown)
  return `${message}, not ${quoted.length > QUOTE_LENGTH ? `${quoted.slice(0, QUOTE_LENGTH)}…` : quoted}`
}

/** A value as JSON, or as text where JSON has no form of it (a function, a bigint, a cycle): a library caller may pass anything. */
export function quoteJson (value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

// Keys whose values are secrets, at any depth: a token, the lists of them.
const SECRET_KEYS: ReadonlySet<string> = new Set(['token', 'tokens', 'scopedTokens', 'adminToken'])

// Errors whose value says nothing more: a missing field has none, an empty string or list is all it says, a long
// string is cut anyway, and an unknown key is named by its path.
const UNQUOTED: ReadonlySet<ValueErrorType> = new Set([ValueErrorType.ObjectRequiredProperty, ValueErrorType.ObjectAdditionalProperties,
  ValueErrorType.StringMinLength, ValueErrorType.StringMaxLength, ValueErrorType.ArrayMinItems])

/**
 * The value an error may quote: never one under a secret's key (`/tokens/0`, `/0/token`), nor a string, or a value
 * holding one, where the schema holds a token anywhere (scoped tokens given as a string may be a token; a device
 * given as `null` is no secret), nor one that says nothing more.
 */
export function shownValue ({ type, path, schema, value }: ValueError): unknown {
  if (UNQUOTED.has(type) || path.split('/').some(part => SECRET_KEYS.has(part))) return undefined
  return holdsToken(schema) && holdsString(value) ? undefined : value
}

// Whether a value is a string or holds one, at any depth; a library caller's value may hold itself.
function holdsString (value: unknown, seen = new Set<object>()): boolean {
  if (typeof value === 'string') return true
  if (typeof value !== 'object' || value === null || seen.has(value)) return false
  seen.add(value)
  return Object.values(value).some(inner => holdsString(inner, seen))
}

// Whether a schema is a token's or holds one: a token's pattern anywhere in it.
function holdsToken (schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false
  if ((schema as { pattern?: unknown }).pattern === TOKEN_PATTERN) return true
  return Object.values(schema).some(holdsToken)
}

// What a value must be: a type and its range together, so the first thing TypeBox found (a string, or 0) is told
// all it needs at once.
function wanted (error: ValueError): string {
  const schema = error.schema
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty: return 'is missing'
    case ValueErrorType.ObjectAdditionalProperties: return unknownFieldMessage(error.path, schema)
    case ValueErrorType.Object: return 'must be an object'
    case ValueErrorType.Array: return `must be an array${(schema.items as { type?: unknown } | undefined)?.type === 'string' ? ' of strings' : ''}`
    case ValueErrorType.ArrayMinItems: return minItemsRule(schema as { minItems?: number })
    case ValueErrorType.String: return 'must be a string'
    case ValueErrorType.StringMinLength: return 'must not be empty'
    case ValueErrorType.StringMaxLength: return `must be at most ${String(schema.maxLength)} characters long`
    case ValueErrorType.StringPattern: return patternRule(schema as { pattern?: string })
    case ValueErrorType.Boolean: return 'must be true or false'
    case ValueErrorType.Integer:
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.IntegerMaximum: return `must be a whole number${range(schema as { minimum?: number })}`
    case ValueErrorType.Number:
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.NumberMaximum: return `must be a number${range(schema as { minimum?: number })}`
    case ValueErrorType.Literal: return `must be ${JSON.stringify(schema.const)}`
    // A union's own description says what it takes; its members' errors would each tell only half.
    case ValueErrorType.Union: return `must be ${String(schema.description)}`
    /* c8 ignore next: the schemas checked here use no other kind of check */
    default: return error.message
  }
}

// " from 1 to 1000000", or nothing for a number of any size (every range in src/ has both ends, or neither).
function range ({ minimum, maximum }: { minimum?: number, maximum?: number }): string {
  return minimum === undefined ? '' : ` from ${minimum} to ${String(maximum)}`
}

/**
 * What a string of a patterned schema must be, in words: a token's rule, a timestamp's, or the rule the schema
 * states itself (`patternRule`, as a device name's does), so a name is never told to be a timestamp.
 */
export function patternRule (schema: { pattern?: string, patternRule?: unknown }): string {
  if (schema.pattern === TOKEN_PATTERN) return TOKEN_RULE
  if (schema.pattern === TIMESTAMP_PATTERN) return TIMESTAMP_RULE
  // Every other patterned schema states its rule (test/util/value-errors.batched.test.ts holds them to it).
  return String(schema.patternRule)
}

/** What a list with too few entries must hold: `minItemsName` says what an entry is (a device), not TypeBox's words. */
export function minItemsRule ({ minItems, minItemsName = 'entry' }: { minItems?: number, minItemsName?: unknown }): string {
  return `must list at least ${String(minItems)} ${String(minItemsName)}`
}
