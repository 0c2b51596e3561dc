import { isIPv6 } from 'node:net'
import type { TypeCheck } from '@sinclair/typebox/compiler'
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors'
import type { TSchema } from '@sinclair/typebox'
import { toDelayRange } from '../util/delay.js'
import { describeOversize } from '../data/generate-size.js'
import { ANY_ORIGIN, describeNonOrigin } from '../wire/origin.js'
import type { ResolvedOptions } from './options.js'

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
export const SECRET_OPTIONS: ReadonlySet<string> = new Set(['tokens', 'adminToken'])

/** The first problem of the options, the schema's checks first; undefined when there is none. */
export function findOptionsProblem (check: TypeCheck<TSchema>, options: Record<string, unknown>): OptionsProblem | undefined {
  const error = check.Errors(options).First()
  if (error !== undefined) return schemaProblem(error)
  return combinationProblem(options as ResolvedOptions)
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
function fieldProblem (key: string, path: string, message: string, value?: unknown, hint?: string): OptionsProblem {
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
    case ValueErrorType.String: return 'must be a string'
    case ValueErrorType.StringMinLength: return 'must not be empty'
    // The options' one pattern: a token is one word, as an Authorization header carries it.
    case ValueErrorType.StringPattern: return 'must not contain spaces'
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

// What the schema cannot say: a range's order, a size's total, origins, and options that go (or never go) together.
function combinationProblem (options: ResolvedOptions): OptionsProblem | undefined {
  const { host, latency, generate, corsOrigins, tlsCert, tlsKey, tlsSelfSigned, adminToken, tokens } = options
  // A URL or host:port would only fail later, as a host name that cannot be found.
  if (/[\s/@]/.test(host) || (host.includes(':') && !isIPv6(host))) {
    return fieldProblem('host', '', 'must be a host name or an IP address alone, without scheme, port or path (like 127.0.0.1, 0.0.0.0 or ::)', host)
  }
  const range = latency === undefined ? undefined : toDelayRange(latency)
  if (typeof range === 'string') return fieldProblem('latency', '', range)
  const oversize = generate === undefined ? undefined : describeOversize(generate)
  if (oversize !== undefined) return fieldProblem('generate', '', oversize)
  const origins = originProblem(corsOrigins)
  if (origins !== undefined) return origins

  if (tlsSelfSigned && (tlsCert !== undefined || tlsKey !== undefined)) {
    return together(['tlsSelfSigned', tlsCert === undefined ? 'tlsKey' : 'tlsCert'], (self, files) => `${self} cannot be combined with ${files}: choose one`)
  }
  if ((tlsCert === undefined) !== (tlsKey === undefined)) {
    return together(tlsCert === undefined ? ['tlsKey', 'tlsCert'] : ['tlsCert', 'tlsKey'], (given, missing) => `${given} needs ${missing} too: give both or neither`)
  }
  if (adminToken !== undefined && tokens.includes(adminToken)) {
    return together(['adminToken', 'tokens'], (admin, device) => `the same token cannot be both ${admin} and ${device}: the admin token must never open the device API`)
  }
  if (generate !== undefined && options.fixtures !== undefined) {
    return together(['generate', 'fixtures'], (a, b) => `${a} cannot be combined with ${b}: generated data is served instead of fixture files`)
  }
  if (generate !== undefined && options.watch) {
    return together(['watch', 'generate'], (a, b) => `${a} cannot be combined with ${b}: only fixture files can be watched`)
  }
  return undefined
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

function together (keys: [string, string], sentence: (first: string, second: string) => string): OptionsProblem {
  return { keys, path: '', sentence: ([first, second]) => sentence(first as string, second as string) }
}
