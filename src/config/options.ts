import { TypeCompiler } from '@sinclair/typebox/compiler'
import type { FastifyBaseLogger } from 'fastify'
import { combinationProblem } from './combination-problems.js'
import { DEFAULT_LIMITS } from './limits.js'
import { findOptionsProblem, OptionsError, type OptionsProblem } from './option-problems.js'
import { DEFAULT_JOURNAL_SIZE, DEFAULT_MAX_HEADER_SIZE, OptionsSchema, type ResolvedOptions } from './options-schema.js'
import { SHARED_OPTION_DEFAULTS } from './shared-options.js'
import type { HealthOption } from '../health/health-spec.js'

export { OptionsError }

/** What startMockNvr takes: every field optional, plus in-memory data or your own logger. */
export type MockNvrOptions = Partial<ResolvedOptions> & {
  /** Serve this instead of fixture files; validated exactly like a fixture file. */
  data?: unknown
  /** A pino-compatible logger to use instead of building one from logLevel. */
  logger?: FastifyBaseLogger
  /**
   * The device's health from the start: a state (`{ state: 'slow', latency: 300 }`), steps
   * (`[{ at: 0, state: 'online' }, { at: 5000, state: 'offline', for: 2000 }]`) or a pattern
   * (`{ pattern: 'flapping', up: 1000, down: 1000 }`); online for good when absent.
   */
  health?: HealthOption
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
  journalSize: DEFAULT_JOURNAL_SIZE,
  clock: 'real'
}

const checkOptions = TypeCompiler.Compile(OptionsSchema)

/** The first problem of options already filled in with defaults, or undefined. */
export function findProblem (options: Record<string, unknown>): OptionsProblem | undefined {
  return findOptionsProblem(checkOptions, options as ResolvedOptions, combinationProblem)
}

/** Fills in defaults and checks the result; a bad value throws OptionsError naming the option. */
export function resolveOptions (input: MockNvrOptions): ResolvedOptions & Pick<MockNvrOptions, 'data' | 'logger' | 'health'> {
  const defined = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined))
  const { data, logger, health, ...options } = { ...LIBRARY_DEFAULTS, ...defined } as MockNvrOptions & ResolvedOptions
  const problem = findProblem(options)
  if (problem !== undefined) throw new OptionsError(problem)
  return { ...options, data, logger, health }
}
