import { Type, type Static } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import type { FastifyBaseLogger } from 'fastify'
import { GenerateSizeSchema } from '../data/generate-size.js'
import { DEFAULT_JOURNAL_SIZE } from '../control/journal.js'
import { combinationProblem } from './combination-problems.js'
import { DEFAULT_LIMITS } from './limits.js'
import { findOptionsProblem, OptionsError, type OptionsProblem } from './option-problems.js'
import { SHARED_OPTION_DEFAULTS, SharedOptionSchemas } from './shared-options.js'

export { OptionsError }

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

/** The default of maxHeaderSize, in bytes. */
export const DEFAULT_MAX_HEADER_SIZE = 65536

export const OptionsSchema = Type.Object({
  /** TCP port to listen on; 0 picks a free one. */
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  /** Interface to listen on. */
  host: Type.String({ minLength: 1 }),
  /** PEM certificate file (its chain may follow) to serve HTTPS with; needs tlsKey. */
  tlsCert: Type.Optional(Type.String({ minLength: 1 })),
  /** PEM private key file of tlsCert. */
  tlsKey: Type.Optional(Type.String({ minLength: 1 })),
  /** Serve HTTPS with a certificate generated at start for localhost, 127.0.0.1, ::1, this machine's name and the host. */
  tlsSelfSigned: Type.Boolean(),
  /** A fixture file or a folder of them; the bundled demo data when absent. */
  fixtures: Type.Optional(Type.String({ minLength: 1 })),
  tokens: SharedOptionSchemas.tokens,
  scopedTokens: SharedOptionSchemas.scopedTokens,
  rateLimit: Type.Optional(SharedOptionSchemas.rateLimit),
  corsOrigins: SharedOptionSchemas.corsOrigins,
  /** pino level, or silent. */
  logLevel: Type.Union(LOG_LEVELS.map(level => Type.Literal(level)), { description: `one of ${LOG_LEVELS.slice(0, -1).join(', ')} or ${LOG_LEVELS.at(-1) as string}` }),
  /** Human-readable logs instead of JSON lines. */
  prettyLogs: Type.Boolean(),
  seed: SharedOptionSchemas.seed,
  /** Largest request line plus headers, in bytes; it also bounds how long an id in the path can be. */
  maxHeaderSize: Type.Integer({ minimum: 8192, maximum: 1048576 }),
  /** Milliseconds a client has to send the request line and headers (a longer request time-out is shortened to it); 0 for no limit. */
  headersTimeout: Type.Integer({ minimum: 0, maximum: 3600000 }),
  /** Milliseconds a client has to send a whole request, body included; 0 for no limit. */
  requestTimeout: Type.Integer({ minimum: 0, maximum: 3600000 }),
  /** Milliseconds an idle keep-alive connection stays open. */
  keepAliveTimeout: Type.Integer({ minimum: 1, maximum: 3600000 }),
  /** Connections held at once; any more are closed unanswered. 0 for no cap. */
  maxConnections: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
  /** Reload the fixtures when they change on disk; a bad edit is logged and the last good data kept. */
  watch: Type.Boolean(),
  /** Serve generated data instead of fixtures: cam-1 … cam-N, each with line-1 … line-M (see seed). */
  generate: Type.Optional(GenerateSizeSchema),
  /** Bearer token of the admin API under /__admin/; without it the admin API is off. */
  adminToken: Type.Optional(Type.String({ minLength: 1, pattern: '^\\S+$' })),
  latency: SharedOptionSchemas.latency,
  /** Let a request ask for its own fault with `Prefer: code=503` or `Prefer: delay=800`. */
  allowPrefer: Type.Boolean(),
  /** How many requests the journal keeps, the oldest dropped first; 0 keeps none. */
  journalSize: Type.Integer({ minimum: 0, maximum: 1_000_000 })
}, { additionalProperties: false })
export type ResolvedOptions = Static<typeof OptionsSchema>

/** What startMockNvr takes: every field optional, plus in-memory data or your own logger. */
export type MockNvrOptions = Partial<ResolvedOptions> & {
  /** Serve this instead of fixture files; validated exactly like a fixture file. */
  data?: unknown
  /** A pino-compatible logger to use instead of building one from logLevel. */
  logger?: FastifyBaseLogger
}

/** Defaults for programmatic use: a free port and no log output, as a test double wants. */
export const LIBRARY_DEFAULTS: ResolvedOptions = {
  port: 0,
  host: '127.0.0.1',
  tlsSelfSigned: false,
  ...SHARED_OPTION_DEFAULTS,
  logLevel: 'silent',
  prettyLogs: false,
  maxHeaderSize: DEFAULT_MAX_HEADER_SIZE,
  ...DEFAULT_LIMITS,
  watch: false,
  allowPrefer: false,
  journalSize: DEFAULT_JOURNAL_SIZE
}

const checkOptions = TypeCompiler.Compile(OptionsSchema)

/** The first problem of options already filled in with defaults, or undefined. */
export function findProblem (options: Record<string, unknown>): OptionsProblem | undefined {
  return findOptionsProblem(checkOptions, options as ResolvedOptions, combinationProblem)
}

/** Fills in defaults and checks the result; a bad value throws OptionsError naming the option. */
export function resolveOptions (input: MockNvrOptions): ResolvedOptions & Pick<MockNvrOptions, 'data' | 'logger'> {
  const defined = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined))
  const { data, logger, ...options } = { ...LIBRARY_DEFAULTS, ...defined } as MockNvrOptions & ResolvedOptions
  const problem = findProblem(options)
  if (problem !== undefined) throw new OptionsError(problem)
  return { ...options, data, logger }
}
