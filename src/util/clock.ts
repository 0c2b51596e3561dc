/** A timer a clock has set; pass it back to cancel it. */
export interface ClockTimer {
  readonly due: number
}

/**
 * Where a device reads the time and waits: its schedules, drift, latency, fault delays, slow answers, the rate
 * limit's refill and the journal's times. The real clock, or a manual one a test moves by hand, so that all of a
 * device's time is a function of its seed and the time elapsed, never of how fast a machine is.
 */
export interface Clock {
  /** Whether it moves only when told: a wait on it then lasts until someone moves it. */
  readonly manual: boolean
  /** Milliseconds since the epoch, as Date.now() gives them. */
  now: () => number
  /**
   * Runs the callback once, `ms` from now. A background timer (a fleet's summary line) holds neither the process
   * open nor a manual clock's count of pending waits.
   */
  setTimer: (callback: () => void, ms: number, background?: boolean) => ClockTimer
  clearTimer: (timer: ClockTimer) => void
}

interface ManualTimer extends ClockTimer {
  readonly order: number
  readonly callback: () => void
  readonly background: boolean
}

/** A clock that moves only when told: advance(ms) runs every timer due by then, in the order they are due. */
export class ManualClock implements Clock {
  readonly manual = true
  #now: number
  #timers: ManualTimer[] = []
  #order = 0

  constructor (start = Date.now()) {
    this.#now = start
  }

  now (): number {
    return this.#now
  }

  /** Timers set and not yet run or cleared, background ones left out: every wait a device holds on it. */
  get pending (): number {
    let pending = 0
    for (const timer of this.#timers) if (!timer.background) pending++
    return pending
  }

  setTimer (callback: () => void, ms: number, background = false): ClockTimer {
    const timer: ManualTimer = { due: this.#now + Math.max(0, ms), order: this.#order++, callback, background }
    this.#timers.push(timer)
    return timer
  }

  clearTimer (timer: ClockTimer): void {
    this.#timers = this.#timers.filter(each => each !== timer)
  }

  /** Moves the time on by `ms`, running each timer due on the way at its own time; a timer set meanwhile runs too if due. */
  advance (ms: number): void {
    const until = this.#now + ms
    for (let next = this.#nextDue(until); next !== undefined; next = this.#nextDue(until)) {
      this.#timers = this.#timers.filter(each => each !== next)
      this.#now = next.due
      next.callback()
    }
    this.#now = until
  }

  #nextDue (until: number): ManualTimer | undefined {
    let first: ManualTimer | undefined
    for (const timer of this.#timers) {
      if (timer.due > until) continue
      if (first === undefined || timer.due < first.due || (timer.due === first.due && timer.order < first.order)) first = timer
    }
    return first
  }
}
