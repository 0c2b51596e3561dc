import { Type, type Static, type TObject, type TUnsafe } from '@sinclair/typebox'
import type { TypeCheck } from '@sinclair/typebox/compiler'
import { checkerOnFirstUse } from '../util/checker-on-first-use.js'
import { listValueProblems, notGiven, type ValueProblem } from '../util/value-errors.js'
import { Duration, HEALTH_STATE_NAMES, HEALTH_STATES, PositiveDuration, stateSchema, type HealthSpec, type HealthStateName, type HealthStateRow } from './health-states.js'
import { HealthSpecError } from '../errors/errors.js'

/** One step of a schedule: a state, from `at` ms after the start. */
export type HealthStep = HealthSpec & { at: number }

const phase = Type.Optional(Duration)

/** Online for `up` ms, offline for `down` ms, again and again; `phase` ms into the cycle at the start. */
const FlappingPatternSchema = Type.Object({ pattern: Type.Literal('flapping'), up: PositiveDuration, down: PositiveDuration, phase }, { additionalProperties: false })
export type FlappingPattern = Static<typeof FlappingPatternSchema>

/** A reboot (`down` ms refused, `starting` ms of 503) every `every` ms, the first at every − phase. */
const RebootPatternSchema = Type.Object({ pattern: Type.Literal('reboot'), every: PositiveDuration, down: Duration, starting: Duration, phase }, { additionalProperties: false })
export type RebootPattern = Static<typeof RebootPatternSchema>

export type HealthPattern = FlappingPattern | RebootPattern
/** How a device's health goes over time: steps, or a pattern. */
export type HealthPlan = HealthStep[] | HealthPattern

/** A device's health as startMockNvr's `health` takes it: a state from the start, or a plan. */
export type HealthOption = HealthSpec | HealthPlan

/**
 * A device's health as every surface takes it (library, fleet file, schedule file): a state from the start, steps
 * or a pattern. Its shape depends on `state` and `pattern`, so problemsOfHealth checks it, row by row.
 */
export const HealthOptionSchema: TUnsafe<HealthOption> = Type.Unsafe<HealthOption>(Type.Unknown({
  description: 'a state ({ "state": … }), steps ([{ "at", "state", … }]) or a pattern ({ "pattern": "flapping" | "reboot", … })'
}))

const STATE_LIST = HEALTH_STATE_NAMES.map(name => `"${name}"`).join(', ')
const specChecks = new Map(HEALTH_STATE_NAMES.map(name => [name, checkerOnFirstUse(stateSchema(name))]))
const stepChecks = new Map(HEALTH_STATE_NAMES.map(name => [name, checkerOnFirstUse(stateSchema(name, { at: Duration }))]))

const PATTERN_CHECKS: Record<string, () => TypeCheck<TObject>> = {
  flapping: checkerOnFirstUse(FlappingPatternSchema),
  reboot: checkerOnFirstUse(RebootPatternSchema)
}

/** Checks a health state as setHealth and PUT …/health take it; throws HealthSpecError. */
export function parseHealthSpec (value: unknown): HealthSpec {
  return throwIfAny(problemsOfState(value, '', specChecks)) ?? value as HealthSpec
}

/** Every problem of a health option (a state, steps or a pattern), each with its JSON path under `path`. */
export function problemsOfHealth (value: unknown, path = ''): ValueProblem[] {
  if (isObject(value) && 'state' in value) return problemsOfState(value, path, specChecks)
  return problemsOfPlan(value, path)
}

/** A health option as a plan: a state from the start is the one step at 0. Checked by problemsOfHealth first. */
export function planOfHealth (health: HealthOption): HealthPlan {
  return !Array.isArray(health) && 'state' in health ? [{ at: 0, ...health }] : health
}

function problemsOfPlan (value: unknown, path: string): ValueProblem[] {
  if (Array.isArray(value)) return problemsOfSteps(value, path)
  if (!isObject(value)) return [{ path, message: notGiven('must be a state ({ "state": "offline", … }), a list of steps ({ "at", "state", … }) or a pattern ({ "pattern": "flapping" | "reboot", … })', value) }]
  const check = typeof value.pattern === 'string' ? PATTERN_CHECKS[value.pattern] : undefined
  if (check === undefined) return [{ path: `${path}/pattern`, message: value.pattern === undefined ? 'is missing' : notGiven('must be "flapping" or "reboot"', value.pattern) }]
  const problems = prefixed(check(), value, path)
  if (problems.length > 0) return problems
  const pattern = value as unknown as HealthPattern
  const cycle = pattern.pattern === 'flapping' ? pattern.up + pattern.down : pattern.every
  if ((pattern.phase ?? 0) >= cycle) return [{ path: `${path}/phase`, message: `must be less than the cycle (${cycle} ms), not ${pattern.phase as number}` }]
  if (pattern.pattern === 'reboot' && pattern.down + pattern.starting >= pattern.every) {
    return [{ path: `${path}/every`, message: `must be longer than down + starting (${pattern.down + pattern.starting} ms), not ${pattern.every}` }]
  }
  return []
}

function problemsOfSteps (steps: unknown[], path: string): ValueProblem[] {
  const problems = steps.flatMap((step, index) => problemsOfState(step, `${path}/${index}`, stepChecks))
  if (problems.length > 0) return problems
  for (let index = 1; index < steps.length; index++) {
    const at = (steps[index] as HealthStep).at
    const before = (steps[index - 1] as HealthStep).at
    if (at <= before) problems.push({ path: `${path}/${index}/at`, message: `must come after the previous step's at (${before}), not ${at}` })
  }
  return problems
}

function problemsOfState (value: unknown, path: string, checks: Map<HealthStateName, () => TypeCheck<TObject>>): ValueProblem[] {
  if (!isObject(value)) return [{ path, message: notGiven('must be an object', value) }]
  const check = typeof value.state === 'string' ? checks.get(value.state as HealthStateName) : undefined
  if (check === undefined) return [{ path: `${path}/state`, message: value.state === undefined ? 'is missing' : notGiven(`must be one of ${STATE_LIST}`, value.state) }]
  const problems = prefixed(check(), value, path)
  if (problems.length > 0) return problems
  const row: HealthStateRow = HEALTH_STATES[value.state as HealthStateName]
  const wrong = row.check?.(value as unknown as HealthSpec)
  return wrong === undefined ? [] : [{ path: `${path}/${wrong[0]}`, message: wrong[1] }]
}

function prefixed (check: TypeCheck<TObject>, value: unknown, path: string): ValueProblem[] {
  return listValueProblems(check, value).map(problem => ({ path: `${path}${problem.path}`, message: problem.message }))
}

function throwIfAny (problems: ValueProblem[]): undefined {
  if (problems.length > 0) throw new HealthSpecError(problems)
  return undefined
}

function isObject (value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
