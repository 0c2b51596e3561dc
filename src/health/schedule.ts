import { durationOf, type HealthSpec } from './health-states.js'
import type { HealthPattern, HealthPlan, HealthStep } from './health-spec.js'

/** A stretch of time in one state, in ms after the schedule's start; `end` undefined: it lasts. */
export interface Segment {
  spec: HealthSpec
  start: number
  end?: number
}

/** A change of state on a timeline, `at` ms after the schedule's start. */
export type Transition = HealthSpec & { at: number }

const ONLINE: HealthSpec = { state: 'online' }

/** The state a plan gives `elapsed` ms after its start, and the stretch it holds for. No plan: online for good. */
export function segmentAt (plan: HealthPlan | undefined, elapsed: number): Segment {
  if (plan === undefined) return { spec: ONLINE, start: 0 }
  return Array.isArray(plan) ? stepSegment(plan, elapsed) : patternSegment(plan, elapsed)
}

/**
 * The changes of state from `from` ms after the start, the state in force then first: at most `count`, and none
 * at or after `until`. The same plan gives the same timeline, whenever it is asked.
 */
export function timeline (plan: HealthPlan | undefined, from: number, { count = 10, until = Infinity } = {}): Transition[] {
  const transitions: Transition[] = []
  let segment = segmentAt(plan, from)
  transitions.push({ ...segment.spec, at: Math.max(from, segment.start) })
  while (transitions.length < count && segment.end !== undefined && segment.end < until) {
    segment = segmentAt(plan, segment.end)
    transitions.push({ ...segment.spec, at: segment.start })
  }
  return transitions
}

function stepSegment (steps: HealthStep[], elapsed: number): Segment {
  let index = -1
  while (index + 1 < steps.length && (steps[index + 1] as HealthStep).at <= elapsed) index++
  const next = steps[index + 1]?.at
  if (index === -1) return withEnd({ spec: ONLINE, start: 0 }, next)
  const { at, ...spec } = steps[index] as HealthStep
  const duration = durationOf(spec)
  const ends = duration === undefined ? undefined : at + duration
  // A step that ends before the next one leaves the device online in between.
  if (ends !== undefined && (next === undefined || ends < next)) {
    return elapsed < ends ? { spec, start: at, end: ends } : withEnd({ spec: ONLINE, start: ends }, next)
  }
  return withEnd({ spec, start: at }, next)
}

function patternSegment (pattern: HealthPattern, elapsed: number): Segment {
  const phase = pattern.phase ?? 0
  if (pattern.pattern === 'flapping') {
    const cycle = pattern.up + pattern.down
    const cycleStart = elapsed - ((elapsed + phase) % cycle)
    const downFrom = cycleStart + pattern.up
    if (elapsed < downFrom) return { spec: ONLINE, start: Math.max(0, cycleStart), end: downFrom }
    return { spec: { state: 'offline' }, start: Math.max(0, downFrom), end: cycleStart + cycle }
  }
  // Reboots begin at every − phase, then every `every` ms.
  const { every, down, starting } = pattern
  const cycleStart = elapsed - ((elapsed + phase) % every)
  const rebootEnds = cycleStart + down + starting
  // Before the first reboot, the cycle began before the start: online from the start.
  const rebooted = cycleStart + phase >= every
  if (rebooted && elapsed < rebootEnds) return { spec: { state: 'rebooting', down, starting }, start: cycleStart, end: rebootEnds }
  return { spec: ONLINE, start: rebooted ? rebootEnds : 0, end: cycleStart + every }
}

function withEnd (segment: Segment, end: number | undefined): Segment {
  return end === undefined ? segment : { ...segment, end }
}
