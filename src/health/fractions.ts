import { createRandom, seedFor } from '../util/random.js'
import type { FlappingPattern, HealthPlan } from './health-spec.js'

/** How a device chosen by --flapping-fraction flaps: up 5 s, down 5 s, each at its own seeded phase. */
export const FRACTION_FLAPPING = { up: 5000, down: 5000 } as const

/** The shares of a fleet to start offline and to flap, each from 0 to 1, together at most 1 (the options' checks). */
export interface HealthFractions {
  offline?: number
  flapping?: number
}

/**
 * The plan each chosen device gets: round(offline × N) devices offline from the start, then round(flapping × N)
 * flapping, never the same device twice. Which ones is a function of the seed and the names alone.
 */
export function plansByFraction (names: readonly string[], seed: number, { offline = 0, flapping = 0 }: HealthFractions): Map<string, HealthPlan> {
  // Ranked by the seed, then by name where two ranks meet, so the order the names come in never matters.
  const order = names.map(name => ({ name, rank: seedFor(seed, name), key: `${seedFor(seed, name).toString(16).padStart(8, '0')} ${name}` }))
    .sort((a, b) => a.key < b.key ? -1 : 1)
  const offlineCount = Math.round(offline * names.length)
  const flappingCount = Math.min(names.length - offlineCount, Math.round(flapping * names.length))
  const plans = new Map<string, HealthPlan>()
  order.slice(0, offlineCount).forEach(({ name }) => plans.set(name, [{ at: 0, state: 'offline' }]))
  order.slice(offlineCount, offlineCount + flappingCount).forEach(({ name, rank }) => plans.set(name, flappingOf(rank)))
  return plans
}

function flappingOf (deviceSeed: number): FlappingPattern {
  const cycle = FRACTION_FLAPPING.up + FRACTION_FLAPPING.down
  return { pattern: 'flapping', ...FRACTION_FLAPPING, phase: Math.floor(createRandom(deviceSeed)() * cycle) }
}
