import { TypeCompiler } from '@sinclair/typebox/compiler'
import type { FastifyBaseLogger } from 'fastify'
import { combinationProblem, controlPortProblem } from './combination-problems.js'
import { DEFAULT_LIMITS } from './limits.js'
import { listOptionsProblems, optionsError, type OptionsProblem } from './option-problems.js'
import { DEFAULT_JOURNAL_SIZE, DEFAULT_MAX_HEADER_SIZE, OptionsSchema, type GivenOptions, type ResolvedOptions } from './options-schema.js'
import { SHARED_OPTION_DEFAULTS } from './shared-options.js'

/** What startMockNvr takes: every option optional, plus in-memory data or your own logger. */
export type MockNvrOptions = Partial<GivenOptions> & {
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
  journalSize: DEFAULT_JOURNAL_SIZE,
  clock: 'real'
}

const checkOptions = TypeCompiler.Compile(OptionsSchema)

/** Every problem of options already filled in with defaults; none when they can be used. */
export function findProblems (options: Record<string, unknown>): OptionsProblem[] {
  const problems = listOptionsProblems(checkOptions, options as GivenOptions, given => combinationProblem(checkOptions.Decode(given)))
  // Reported with the others, not after them: a fleet's ports are the one thing a control port must not be.
  const clash = controlPortProblem(options, new Set(problems.flatMap(problem => problem.keys)))
  return clash === undefined ? problems : [...problems, clash]
}

/** Fills in defaults, checks the result and reads it; bad values throw OptionsError naming every option at fault. */
export function resolveOptions (input: MockNvrOptions): ResolvedOptions & Pick<MockNvrOptions, 'data' | 'logger'> {
  const defined = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined))
  const { data, logger, ...options } = { ...LIBRARY_DEFAULTS, ...defined } as MockNvrOptions & GivenOptions
  const problems = findProblems(options)
  if (problems.length > 0) throw optionsError(problems)
  return { ...checkOptions.Decode(options), data, logger }
}
