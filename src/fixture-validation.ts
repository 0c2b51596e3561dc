import { TypeCompiler } from '@sinclair/typebox/compiler'
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors'
import { FixtureDataSchema, type FixtureData } from './schemas.js'

/** One thing wrong in fixture data: where (file and JSON Pointer) and what. */
export interface FixtureProblem {
  file: string
  path: string
  message: string
}

const MAX_REPORTED_PROBLEMS = 20

/** Fixture data that cannot be served. Its message lists every problem, one per line. */
export class FixtureError extends Error {
  readonly problems: FixtureProblem[]

  constructor (problems: FixtureProblem[]) {
    const shown = problems.slice(0, MAX_REPORTED_PROBLEMS).map(formatProblem)
    if (problems.length > shown.length) shown.push(`…and ${problems.length - shown.length} more`)
    super(`Invalid fixtures:\n${shown.map(line => `  ${line}`).join('\n')}`)
    this.name = 'FixtureError'
    this.problems = problems
  }
}

export function formatProblem ({ file, path, message }: FixtureProblem): string {
  return path === '' ? `${file}: ${message}` : `${file}: ${path}: ${message}`
}

const checkFixtureData = TypeCompiler.Compile(FixtureDataSchema)

/** Checks one file's content against the wire schema; returns it typed, or throws FixtureError. */
export function validateFixtureData (value: unknown, file: string): FixtureData {
  if (checkFixtureData.Check(value)) {
    const problems = impossibleTimestamps(value, file)
    if (problems.length > 0) throw new FixtureError(problems)
    return value
  }
  const problems: FixtureProblem[] = []
  const seenPaths = new Set<string>()
  for (const error of checkFixtureData.Errors(value)) {
    // TypeBox may report one spot twice (a missing field is also "not a string"); the first is the clearest.
    if (seenPaths.has(error.path)) continue
    seenPaths.add(error.path)
    problems.push({ file, path: error.path, message: describe(error) })
  }
  throw new FixtureError(problems)
}

function describe (error: ValueError): string {
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty: return 'is missing'
    case ValueErrorType.ObjectAdditionalProperties: return 'is not a known field'
    case ValueErrorType.Object: return 'must be an object'
    case ValueErrorType.Array: return 'must be an array'
    case ValueErrorType.String: return 'must be a string'
    case ValueErrorType.Boolean: return 'must be true or false'
    case ValueErrorType.Integer: return 'must be an integer'
    case ValueErrorType.StringMinLength: return 'must not be empty'
    case ValueErrorType.StringMaxLength: return `must be at most ${String(error.schema.maxLength)} characters long`
    case ValueErrorType.StringPattern: return 'must be a UTC timestamp like 2024-05-01T08:30:00.000Z'
    /* c8 ignore next: the fixture schema uses no other kind of check */
    default: return error.message
  }
}

function impossibleTimestamps (data: FixtureData, file: string): FixtureProblem[] {
  const problems: FixtureProblem[] = []
  data.counting_lines?.forEach((line, index) => {
    for (const field of ['created', 'updated'] as const) {
      const value = line[field]
      if (!isRealInstant(value)) {
        problems.push({ file, path: `/counting_lines/${index}/${field}`, message: `"${value}" is not a real date and time` })
      }
    }
  })
  return problems
}

// The pattern admits 2024-02-30T25:61:00.000Z; Date rolls such values over, so a round trip exposes them.
function isRealInstant (timestamp: string): boolean {
  const date = new Date(timestamp)
  return !Number.isNaN(date.getTime()) && date.toISOString() === timestamp
}
