import { setImmediate as nextTurn } from 'node:timers/promises'
import type { Steps } from './steps.js'

/** Devices a fleet-wide verb starts per turn of the event loop: a few milliseconds at most, so no device waits behind it. */
export const DEVICES_PER_TURN = 100

/**
 * `act` on every item, in order, a slice per turn of the event loop, and what each gave, once every promise given has
 * settled: a verb on 10,000 devices never holds another device's answer. A throw stops at that item, the ones after
 * untouched; a rejection is thrown once every item has been acted on.
 */
export async function mapInSteps<T, R> (items: readonly T[], act: (item: T) => R | Promise<R>, { perTurn = DEVICES_PER_TURN, turn = nextTurn }: Steps = {}): Promise<R[]> {
  const results: Array<R | Promise<R>> = []
  for (let at = 0; at < items.length; at++) {
    if (at > 0 && at % perTurn === 0) await turn()
    results.push(act(items[at] as T))
  }
  return await Promise.all(results)
}
