import { clearTimeout, setTimeout } from 'node:timers'
import { ManualClock, type Clock, type ClockTimer } from './clock.js'
import { MAX_TIMER_MS } from './delay.js'

interface RealTimer extends ClockTimer {
  handle: NodeJS.Timeout
}

/**
 * The machine's clock, on Node's own timers, so a test's fake timers never hold a server. Its timers hold the
 * process open, as a device coming back later, or a delayed answer, must; a background timer does not.
 */
export class RealClock implements Clock {
  readonly manual = false

  now (): number {
    return Date.now()
  }

  setTimer (callback: () => void, ms: number, background = false): ClockTimer {
    const timer: RealTimer = { due: Date.now() + ms, handle: setTimeout(callback, Math.min(ms, MAX_TIMER_MS)) }
    if (background) timer.handle.unref()
    return timer
  }

  clearTimer (timer: ClockTimer): void {
    clearTimeout((timer as RealTimer).handle)
  }
}

/** The clock a process or a handle was asked for: `'manual'` moves only when told. */
export function clockOf (kind: 'real' | 'manual'): Clock {
  return kind === 'manual' ? new ManualClock() : new RealClock()
}
