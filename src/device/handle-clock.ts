import { ClockError } from '../errors/errors.js'
import { ManualClock, type Clock } from '../util/clock.js'

/** The device's clock as a handle gives it. */
export interface HandleClock {
  /** Whether it moves only when told (clock: 'manual'). */
  readonly manual: boolean
  /** Milliseconds since the epoch, by this clock. */
  now: () => number
  /** Moves a manual clock on by `ms`, running every change and answering every held request due on the way; resolves once the ports (a server's) follow. Throws ClockError on the real clock. */
  advance: (ms: number) => Promise<void>
  /** Waits on a manual clock (a change of health, a drift edit, a request held by latency, a delay or a slow state); 0 on the real one. */
  readonly pending: number
}

/**
 * The clock of a handle; `settled` resolves once every port has followed its last move. With `turn` (the next turn of
 * the event loop, on Node) a move runs its timers in steps, so a fleet's schedules hold no device's answer.
 */
export function handleClock (clock: Clock, settled: () => Promise<unknown>, turn?: () => Promise<unknown>): HandleClock {
  return {
    manual: clock.manual,
    now: () => clock.now(),
    advance: async ms => {
      if (!(clock instanceof ManualClock)) throw new ClockError('the clock is real: start with clock \'manual\' to move it by hand')
      if (!Number.isInteger(ms) || ms < 0) throw new ClockError(`clock.advance takes whole milliseconds from 0, not ${String(ms)}`)
      if (turn === undefined) clock.advance(ms)
      else await clock.advanceInSteps(ms, { turn })
      await settled()
    },
    get pending () {
      return clock instanceof ManualClock ? clock.pending : 0
    }
  }
}
