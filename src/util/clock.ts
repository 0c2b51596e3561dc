import type { Steps } from './steps.js'

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
  cleared: boolean
}

/** Timers run per turn of the event loop by advanceInSteps: a few milliseconds of schedules at most. */
export const TIMERS_PER_TURN = 200

/**
 * How advanceInSteps steps: the turn is the caller's to give (setImmediate on Node; the browser, where the MSW
 * handlers use this clock, has none).
 */
type ClockSteps = Steps & Required<Pick<Steps, 'turn'>>

// Which of two timers runs first: the one due first, then the one set first.
const sooner = (a: ManualTimer, b: ManualTimer) => a.due !== b.due ? a.due < b.due : a.order < b.order

/**
 * A clock that moves only when told: advance(ms) runs every timer due by then, in the order they are due. Its timers
 * are a binary heap, so a fleet of 10,000 devices' schedules costs log n a timer set, run or cleared, never n.
 */
export class ManualClock implements Clock {
  readonly manual = true
  #now: number
  /** A heap by (due, order); a cleared timer stays in it until it comes up, or until cleared ones are the most. */
  #heap: ManualTimer[] = []
  #live = 0
  /** Of the live timers, the background ones. */
  #background = 0
  #order = 0
  /** The move in progress: moves run one after another. */
  #moving: Promise<void> = Promise.resolve()

  constructor (start = Date.now()) {
    this.#now = start
  }

  now (): number {
    return this.#now
  }

  /** Timers set and not yet run or cleared, background ones left out: every wait a device holds on it. */
  get pending (): number {
    return this.#live - this.#background
  }

  setTimer (callback: () => void, ms: number, background = false): ClockTimer {
    const timer: ManualTimer = { due: this.#now + Math.max(0, ms), order: this.#order++, callback, background, cleared: false }
    this.#heap.push(timer)
    this.#up(this.#heap.length - 1)
    this.#live++
    if (background) this.#background++
    return timer
  }

  clearTimer (timer: ClockTimer): void {
    const own = timer as ManualTimer
    if (own.cleared) return
    this.#retire(own)
    // Cleared timers are dropped once they are more than half the heap.
    if (this.#heap.length > 2 * this.#live + 16) {
      this.#heap = this.#heap.filter(each => !each.cleared)
      for (let at = (this.#heap.length >> 1) - 1; at >= 0; at--) this.#down(at)
    }
  }

  /** Moves the time on by `ms`, running each timer due on the way at its own time; a timer set meanwhile runs too if due. */
  advance (ms: number): void {
    const until = this.#now + ms
    for (let next = this.#take(until); next !== undefined; next = this.#take(until)) next.callback()
    this.#now = until
  }

  /**
   * advance(), a slice of timers per turn of the event loop, so that moving the clock of 10,000 devices' schedules
   * holds no device's answer; resolves once every timer due has run. Moves asked meanwhile wait for this one.
   */
  async advanceInSteps (ms: number, { perTurn = TIMERS_PER_TURN, turn }: ClockSteps): Promise<void> {
    const move = this.#moving.then(async () => {
      const until = this.#now + ms
      let ran = 0
      for (let next = this.#take(until); next !== undefined; next = this.#take(until)) {
        next.callback()
        if (++ran % perTurn === 0) await turn()
      }
      this.#now = until
    })
    this.#moving = move.catch(() => {})
    await move
  }

  // The next timer due by `until`, out of the heap, with the time moved to when it is due.
  #take (until: number): ManualTimer | undefined {
    for (;;) {
      const first = this.#heap[0]
      if (first === undefined || first.due > until) return undefined
      const last = this.#heap.pop() as ManualTimer
      if (this.#heap.length > 0) {
        this.#heap[0] = last
        this.#down(0)
      }
      if (first.cleared) continue
      this.#retire(first)
      this.#now = first.due
      return first
    }
  }

  // A timer run or cleared: no longer live.
  #retire (timer: ManualTimer): void {
    timer.cleared = true
    this.#live--
    if (timer.background) this.#background--
  }

  #up (from: number): void {
    const heap = this.#heap
    let at = from
    while (at > 0) {
      const parent = (at - 1) >> 1
      if (!sooner(heap[at] as ManualTimer, heap[parent] as ManualTimer)) return
      ;[heap[at], heap[parent]] = [heap[parent] as ManualTimer, heap[at] as ManualTimer]
      at = parent
    }
  }

  #down (from: number): void {
    const heap = this.#heap
    let at = from
    for (;;) {
      const left = 2 * at + 1
      let least = at
      if (left < heap.length && sooner(heap[left] as ManualTimer, heap[least] as ManualTimer)) least = left
      if (left + 1 < heap.length && sooner(heap[left + 1] as ManualTimer, heap[least] as ManualTimer)) least = left + 1
      if (least === at) return
      ;[heap[at], heap[least]] = [heap[least] as ManualTimer, heap[at] as ManualTimer]
      at = least
    }
  }
}
