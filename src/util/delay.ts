import { Type, type Static } from '@sinclair/typebox'
import { randomInteger, type Random } from './random.js'

/** The longest a Node.js timer waits: a longer wait fires after 1 ms instead, with a TimeoutOverflowWarning. */
export const MAX_TIMER_MS = 2_147_483_647

/** Longest delay a fault, a Prefer header or --latency may ask for: 5 minutes, in milliseconds. */
const MAX_DELAY_MS = 300_000

const Milliseconds = Type.Integer({ minimum: 0, maximum: MAX_DELAY_MS })

/** A delay in milliseconds: fixed (800), or random within a range ({ min: 100, max: 800 }). */
export const DelaySchema = Type.Union([
  Milliseconds,
  Type.Object({ min: Milliseconds, max: Milliseconds }, { additionalProperties: false })
], { description: `milliseconds from 0 to ${MAX_DELAY_MS}, or { "min": …, "max": … } for a random delay in that range` })
/** A delay as a user gives it: milliseconds, or a range to pick from. */
export type Delay = Static<typeof DelaySchema>

/** A delay ready to use: min === max for a fixed one. */
export interface DelayRange {
  min: number
  max: number
}

/** The range of a delay, or why it is not one (a range goes from low to high), to follow the name of what holds it. */
export function toDelayRange (delay: Delay): DelayRange | string {
  if (typeof delay === 'number') return { min: delay, max: delay }
  if (delay.min > delay.max) return `must go from low to high, not from ${delay.min} to ${delay.max}`
  return delay
}

/** A delay as text: "800", or "100-800" for a range (milliseconds); the dashboard's fault form reads it too. */
export const DELAY_TEXT = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/

/** Reads "800" or "100-800" (milliseconds), as --latency and `Prefer: delay=` take it. */
export function parseDelay (text: string): DelayRange | string {
  const match = DELAY_TEXT.exec(text)
  if (match === null) return `must be milliseconds like 200, or a range like 100-800, not '${text}'`
  const min = Number(match[1])
  const max = match[2] === undefined ? min : Number(match[2])
  if (max > MAX_DELAY_MS) return `must be at most ${MAX_DELAY_MS} milliseconds, not '${text}'`
  return toDelayRange({ min, max })
}

/** The delay to wait this time: the fixed one, or a random one from the seeded generator. */
export function pickDelay (random: Random, { min, max }: DelayRange): number {
  return min === max ? min : randomInteger(random, min, max)
}

/** Delay of every API request: milliseconds, or { min, max } for a random one (see seed); kept as a range once read. */
export const LatencySchema = Type.Transform(DelaySchema)
  // Decoded only once the problems are checked: a backwards range never gets here.
  .Decode(delay => toDelayRange(delay) as DelayRange)
  .Encode(range => range)
