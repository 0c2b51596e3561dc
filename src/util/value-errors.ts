import type { TSchema } from '@sinclair/typebox'
import type { TypeCheck } from '@sinclair/typebox/compiler'
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors'
import { TOKEN_PATTERN, TOKEN_RULE } from './token-characters.js'
import { TIMESTAMP_PATTERN, TIMESTAMP_RULE } from './timestamp-pattern.js'
import { unknownFieldMessage } from './closest-name.js'

/** One thing wrong in a value: where (a JSON Pointer, '' for the whole value) and what. */
export interface ValueProblem {
  path: string
  message: string
}

/** Every problem TypeBox finds, one per JSON path, each in a few plain words. */
export function listValueProblems<T extends TSchema> (check: TypeCheck<T>, value: unknown): ValueProblem[] {
  const problems: ValueProblem[] = []
  const seenPaths = new Set<string>()
  for (const error of check.Errors(value)) {
    // TypeBox may report one spot twice (a missing field is also "not a string"); the first is the clearest.
    if (seenPaths.has(error.path)) continue
    seenPaths.add(error.path)
    problems.push({ path: error.path, message: describeValueError(error) })
  }
  return problems
}

/** "/delay/min: must be at least 0", or the message alone for the whole value. */
export function formatValueProblem ({ path, message }: ValueProblem): string {
  return path === '' ? message : `${path}: ${message}`
}

function describeValueError (error: ValueError): string {
  const schema = error.schema
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty: return 'is missing'
    case ValueErrorType.ObjectAdditionalProperties: return unknownFieldMessage(error.path, schema)
    case ValueErrorType.Object: return 'must be an object'
    case ValueErrorType.Array: return 'must be an array'
    case ValueErrorType.String: return 'must be a string'
    case ValueErrorType.Boolean: return 'must be true or false'
    case ValueErrorType.Integer: return 'must be an integer'
    case ValueErrorType.IntegerMinimum: return `must be at least ${String(schema.minimum)}`
    case ValueErrorType.IntegerMaximum: return `must be at most ${String(schema.maximum)}`
    case ValueErrorType.StringMinLength: return 'must not be empty'
    case ValueErrorType.StringMaxLength: return `must be at most ${String(schema.maxLength)} characters long`
    case ValueErrorType.StringPattern: return patternRule(schema as { pattern?: string })
    case ValueErrorType.Literal: return `must be ${JSON.stringify(schema.const)}`
    // A union's own description says what it takes; its members' errors would each tell only half.
    case ValueErrorType.Union: return `must be ${String(schema.description)}`
    /* c8 ignore next: the schemas checked here use no other kind of check */
    default: return error.message
  }
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
