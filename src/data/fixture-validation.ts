import { TypeCompiler } from '@sinclair/typebox/compiler'
import { FixtureDataSchema, TIMESTAMP_PATTERN, type FixtureData } from '../contract/schemas.js'
import { listValueProblems } from '../util/value-errors.js'
import { FixtureError, type FixtureProblem } from '../errors/errors.js'

const checkFixtureData = TypeCompiler.Compile(FixtureDataSchema)

/**
 * Checks one file's content against the wire schema; returns it typed, or throws FixtureError with every problem:
 * the schema's, and the timestamps of the right shape that name no real instant, so one run reports both.
 */
export function validateFixtureData (value: unknown, file: string): FixtureData {
  const shapeProblems = checkFixtureData.Check(value) ? [] : listValueProblems(checkFixtureData, value).map(problem => ({ file, ...problem }))
  const problems = [...shapeProblems, ...impossibleTimestamps(value, file)]
  if (problems.length > 0) throw new FixtureError(problems)
  return value as FixtureData
}

const TIMESTAMP = new RegExp(TIMESTAMP_PATTERN)

// Read from data of any shape: a line with other problems may still hold an impossible date.
function impossibleTimestamps (value: unknown, file: string): FixtureProblem[] {
  const lines = (value as { counting_lines?: unknown } | null)?.counting_lines
  if (!Array.isArray(lines)) return []
  const problems: FixtureProblem[] = []
  lines.forEach((line: unknown, index) => {
    for (const field of ['created', 'updated'] as const) {
      const timestamp = (line as Record<string, unknown> | null)?.[field]
      // A timestamp of the wrong shape is the schema's problem, reported already.
      if (typeof timestamp === 'string' && TIMESTAMP.test(timestamp) && !isRealInstant(timestamp)) {
        problems.push({ file, path: `/counting_lines/${index}/${field}`, message: `"${timestamp}" is not a real date and time` })
      }
    }
  })
  return problems
}

// The pattern admits 2024-02-30T25:61:00.000Z; Date rolls such values over, so a round trip exposes them.
/** Whether a timestamp of the wire shape names a real instant. */
export function isRealInstant (timestamp: string): boolean {
  const date = new Date(timestamp)
  return !Number.isNaN(date.getTime()) && date.toISOString() === timestamp
}
