/** A seedable pseudo-random generator (mulberry32): the same seed gives the same sequence. */
export type Random = () => number

export function createRandom (seed: number): Random {
  let state = seed >>> 0
  return function next () {
    state = (state + 0x6D2B79F5) >>> 0
    let value = state
    value = Math.imul(value ^ (value >>> 15), value | 1)
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61)
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296
  }
}

/** A whole number from min to max, both included. */
export function randomInteger (random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1))
}

export function pick<T> (random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T
}

/** A seed of its own for one name (a device's, say), derived from a run's seed: the same pair, the same seed. */
export function seedFor (seed: number, name: string): number {
  // FNV-1a over the name, started from the seed.
  let hash = (0x811c9dc5 ^ seed) >>> 0
  for (let index = 0; index < name.length; index++) {
    hash ^= name.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash
}
