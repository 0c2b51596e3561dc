import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox'
import { MAX_TIMER_MS } from '../util/delay.js'

/** Milliseconds a schedule may name: from 0 to what a timer can wait (almost 25 days). */
export const Duration = Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS })
/** A duration that must pass at all: at least 1 ms. */
export const PositiveDuration = Type.Integer({ minimum: 1, maximum: MAX_TIMER_MS })

/** The longest a slow device makes an answer wait: 5 minutes, as a fault's delay. */
export const MAX_LATENCY_MS = 300_000
const Latency = Type.Integer({ minimum: 0, maximum: MAX_LATENCY_MS })

/**
 * What a device's port does at one moment, whatever the state that asks for it:
 * `listening` answers as usual, `closed` refuses connections, `holding` accepts them and never answers,
 * `starting` answers 503 with Retry-After, `slow` answers after a delay.
 */
export type PortMode = 'listening' | 'closed' | 'holding' | 'starting' | 'slow'

/** The health states' names; the table below has a row for each, and no other (the compiler checks). */
const STATE_NAMES = ['online', 'offline', 'unreachable', 'rebooting', 'slow'] as const
export type HealthStateName = typeof STATE_NAMES[number]

// Each state's fields beside `state`, as its row's schema checks them.
const forField = { for: Type.Optional(PositiveDuration) }
const rebootFields = { down: Duration, starting: Duration }
const slowFields = {
  ...forField,
  latency: Latency,
  growth: Type.Optional(Type.Object({ perMinute: Latency, max: Latency }, { additionalProperties: false }))
}

/**
 * Any health state as a user gives it: its name, and every field some state takes (each state's row checks
 * which of them it takes). Its Static type is HealthSpec, so the rows' schemas and the type cannot part.
 */
export const HealthSpecSchema = Type.Object({
  state: Type.Union(STATE_NAMES.map(name => Type.Literal(name))),
  ...Type.Partial(Type.Object({ ...forField, ...rebootFields, ...slowFields })).properties
})
/** A health state as a user gives it, its parameters checked by its row's schema. */
export type HealthSpec = Static<typeof HealthSpecSchema>

/** Where a state is, `elapsed` ms after it began: its port's mode, and when that mode ends (undefined: never by itself). */
export interface StatePhase {
  mode: PortMode
  /** The phase's name where a state has several (rebooting: down, then starting). */
  phase?: string
  /** Elapsed ms at which the phase ends and the next begins, or the state ends. */
  endsAt?: number
  /** For a slow device, the latency now. */
  latency?: number
}

/** One health state: the fields it takes beside `state`, and what its port does as time passes. */
export interface HealthStateRow {
  fields: TProperties
  /** How long the state lasts by itself, if it ends by itself (a reboot does); otherwise its `for`, if any. */
  ownDuration?: (spec: HealthSpec) => number
  /** The port's mode `elapsed` ms after the state began. */
  phaseAt: (spec: HealthSpec, elapsed: number) => StatePhase
  /** What the row's schema cannot say, as [field, problem]. */
  check?: (spec: HealthSpec) => [string, string] | undefined
}

/** The health states, one row each: adding a state touches this table only. */
export const HEALTH_STATES = {
  online: {
    fields: forField,
    phaseAt: () => ({ mode: 'listening' })
  },
  offline: {
    fields: forField,
    phaseAt: () => ({ mode: 'closed' })
  },
  unreachable: {
    fields: forField,
    phaseAt: () => ({ mode: 'holding' })
  },
  rebooting: {
    // A reboot ends by itself: refused for `down` ms, then 503 for `starting` ms, then online.
    fields: rebootFields,
    ownDuration: spec => (spec.down as number) + (spec.starting as number),
    phaseAt: (spec, elapsed) => {
      const down = spec.down as number
      if (elapsed < down) return { mode: 'closed', phase: 'down', endsAt: down }
      return { mode: 'starting', phase: 'starting', endsAt: down + (spec.starting as number) }
    }
  },
  slow: {
    fields: slowFields,
    phaseAt: (spec, elapsed) => ({ mode: 'slow', latency: latencyAt(spec, elapsed) }),
    check: spec => spec.growth !== undefined && spec.growth.max < (spec.latency as number)
      ? ['growth/max', `must be at least the latency (${spec.latency as number}), not ${spec.growth.max}`]
      : undefined
  }
} satisfies Record<HealthStateName, HealthStateRow>

export const HEALTH_STATE_NAMES: readonly HealthStateName[] = STATE_NAMES

/** A slow device's latency `elapsed` ms into the state: growing by perMinute each minute, up to max. */
export function latencyAt ({ latency = 0, growth }: HealthSpec, elapsed: number): number {
  if (growth === undefined) return latency
  return Math.min(growth.max, latency + Math.floor(growth.perMinute * elapsed / 60_000))
}

/** The schema of one state's spec; `extra` adds fields (a schedule step's `at`). */
export function stateSchema (name: HealthStateName, extra: TProperties = {}): TObject {
  return Type.Object({ state: Type.Literal(name), ...extra, ...HEALTH_STATES[name].fields }, { additionalProperties: false })
}

/** How long a state lasts before it ends by itself (a reboot) or by its `for`; undefined: until something else happens. */
export function durationOf (spec: HealthSpec): number | undefined {
  const row: HealthStateRow = HEALTH_STATES[spec.state]
  return row.ownDuration?.(spec) ?? spec.for
}

/** Where a state is, `elapsed` ms after it began. */
export function phaseOf (spec: HealthSpec, elapsed: number): StatePhase {
  const row: HealthStateRow = HEALTH_STATES[spec.state]
  return row.phaseAt(spec, elapsed)
}
