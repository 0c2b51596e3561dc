/* eslint-disable no-restricted-globals -- the handlers run in a page, whose timers are the global ones */
import { ManualClock, type Clock, type ClockTimer } from '../util/clock.js'

interface PageTimer extends ClockTimer {
  handle: ReturnType<typeof setTimeout>
}

/** The clock of the MSW handlers on the page's own timers, which a test's fake timers drive too; or a manual one. */
export function pageClockOf (kind: 'real' | 'manual'): Clock {
  if (kind === 'manual') return new ManualClock()
  return {
    manual: false,
    now: () => Date.now(),
    setTimer: (callback, ms) => {
      const timer: PageTimer = { due: Date.now() + ms, handle: setTimeout(callback, ms) }
      return timer
    },
    clearTimer: timer => { clearTimeout((timer as PageTimer).handle) }
  }
}
