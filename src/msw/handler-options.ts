import { Type } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { fieldProblem, findOptionsProblem, OptionsError } from '../config/option-problems.js'
import { SHARED_OPTION_DEFAULTS, SharedOptionSchemas } from '../config/shared-options.js'
import { toDelayRange, type Delay, type DelayRange } from '../util/delay.js'
import { bareOriginOf } from '../wire/origin.js'
import type { FixtureData, ScopedToken } from '../contract/schemas.js'

export interface NvrHandlersOptions {
  /** The origin the frontend calls, e.g. 'http://nvr.test' or location.origin; the API is under `${baseUrl}/nvr/v1`. */
  baseUrl: string
  /** Accepted bearer tokens; without them any non-empty token is accepted, as the server does without --token. */
  tokens?: readonly string[]
  /** Tokens that see only the cameras listed, as --scoped-token: any other camera, known or not, is 403 for them. */
  scopedTokens?: readonly ScopedToken[]
  /** Requests per second per token, in bursts of as many, as --rate-limit; then 429 with Retry-After. Off when absent. */
  rateLimit?: number
  /** The rate limit's clock in milliseconds (performance.now by default), for a test that moves time by hand. */
  now?: () => number
  /** Data in the shape of a fixture file, validated like one; the bundled demo fixtures when absent. */
  data?: FixtureData
  /** Delay of every API request: milliseconds, or { min, max } for a random one (see seed). */
  latency?: Delay
  /** Seed of the random delays; reset() starts the sequence again. */
  seed?: number
  /** Origins allowed to read answers, as --cors-origin; any origin when empty. */
  corsOrigins?: readonly string[]
}

/** The options checked, with their defaults: what the handlers are built from. */
export interface ResolvedHandlerOptions {
  origin: string
  tokens: readonly string[]
  scopedTokens: readonly ScopedToken[]
  rateLimit: number | undefined
  now: (() => number) | undefined
  corsOrigins: readonly string[]
  latency: DelayRange | undefined
  seed: number
  data: unknown
}

// The options startMockNvr takes too have its schema; data is checked as a fixture file is, when it is served.
const HandlerOptionsSchema = Type.Object({
  baseUrl: Type.String(),
  tokens: Type.Optional(SharedOptionSchemas.tokens),
  scopedTokens: Type.Optional(SharedOptionSchemas.scopedTokens),
  rateLimit: Type.Optional(SharedOptionSchemas.rateLimit),
  corsOrigins: Type.Optional(SharedOptionSchemas.corsOrigins),
  seed: Type.Optional(SharedOptionSchemas.seed),
  latency: SharedOptionSchemas.latency,
  data: Type.Optional(Type.Unknown())
}, { additionalProperties: false })
const checkHandlerOptions = TypeCompiler.Compile(HandlerOptionsSchema)

/** Checks the options as startMockNvr checks its own, in the same words; a bad one throws OptionsError naming it. */
export function resolveHandlerOptions (input: NvrHandlersOptions | undefined): ResolvedHandlerOptions {
  const { now, ...options } = Object.fromEntries(Object.entries(input ?? {}).filter(([, value]) => value !== undefined)) as unknown as NvrHandlersOptions
  const problem = findOptionsProblem(checkHandlerOptions, options, ({ baseUrl }) => {
    if (now !== undefined && typeof now !== 'function') return fieldProblem('now', '', 'must be a function returning milliseconds')
    return bareOriginOf(baseUrl) === undefined
      ? fieldProblem('baseUrl', '', "must be an origin such as 'http://nvr.test' or location.origin, without a path", baseUrl)
      : undefined
  })
  if (problem !== undefined) throw new OptionsError(problem)
  const { tokens, scopedTokens, corsOrigins, seed } = { ...SHARED_OPTION_DEFAULTS, ...options }
  return {
    origin: bareOriginOf(options.baseUrl) as string,
    tokens,
    scopedTokens,
    rateLimit: options.rateLimit,
    now,
    corsOrigins,
    latency: options.latency === undefined ? undefined : toDelayRange(options.latency) as DelayRange,
    seed,
    data: options.data
  }
}
