import { CLI_OPTIONS, envName } from './serve-flags.js'
import { TARGET_COMMAND_VARIABLES } from './target-token.js'
import { editDistance } from '../util/closest-name.js'

export { editDistance }

/** The environment's namespace: every variable named so is one mock-nvr reads, a misspelling, or a suite's own. */
export const VARIABLE_PREFIX = 'MOCK_NVR_'

/**
 * Every variable mock-nvr reads: the twin of each flag in the table (args.ts), so a new flag is known at once,
 * and those of the target commands, which are no flag's twin.
 */
export const KNOWN_VARIABLES: ReadonlySet<string> = new Set([...CLI_OPTIONS.map(envName), ...TARGET_COMMAND_VARIABLES])

/** What the mock-nvr namespace of an environment holds that mock-nvr does not read. */
export interface UnknownVariables {
  /** The sentence refusing the first variable close to a known one, with the name it most likely meant. */
  misspelt?: string
  /** One line for each other unknown variable: a suite's own (MOCK_NVR_URL), which mock-nvr leaves alone. */
  warnings: string[]
}

/**
 * Sorts the unknown variables of the mock-nvr namespace. One close to a known name is a misspelling, refused:
 * `MOCK_NVR_TOKEN` for `MOCK_NVR_TOKENS` would otherwise leave the mock accepting any token. Any other is a
 * suite's own, such as the URL it tells its tests, and is only warned of.
 */
export function unknownVariables (env: NodeJS.ProcessEnv): UnknownVariables {
  const unknown = Object.keys(env).filter(name => name.startsWith(VARIABLE_PREFIX) && !KNOWN_VARIABLES.has(name)).sort()
  const warnings: string[] = []
  for (const name of unknown) {
    const closest = closestKnown(name)
    if (closest !== undefined) return { misspelt: `unknown variable ${name}: did you mean ${closest}?`, warnings: [] }
    warnings.push(`warning: ${name} is not a variable mock-nvr reads; it is left alone`)
  }
  return { warnings }
}

function closestKnown (name: string): string | undefined {
  const suffix = name.slice(VARIABLE_PREFIX.length)
  const [closest, distance] = [...KNOWN_VARIABLES]
    .map(known => [known, editDistance(suffix, known.slice(VARIABLE_PREFIX.length))] as const)
    .reduce((best, next) => next[1] < best[1] ? next : best)
  // Beyond a third of the name changed, a suggestion is a guess that misleads more than it helps.
  return distance <= Math.max(2, Math.floor(suffix.length / 3)) ? closest : undefined
}
