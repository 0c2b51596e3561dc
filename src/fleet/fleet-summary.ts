import type { Clock, ClockTimer } from '../util/clock.js'
import type { RequestCounts } from '../control/request-counts.js'

/** How often a fleet says what it did, in milliseconds of its clock. */
export const SUMMARY_EVERY_MS = 1000

/** What the summary reads of a device: its counts and its health now. */
export interface SummarizedDevice {
  readonly counts: RequestCounts
  readonly healthState: string
}

/** The little of a logger the summary writes to. */
export interface SummaryLog {
  info: (fields: object, message: string) => void
  isLevelEnabled?: (level: string) => boolean
}

/** The fields of a summary line: the requests answered in the second by status, and the devices by health. */
export interface FleetSecond {
  requests: number
  /** Requests by status; a connection dropped on purpose is 'dropped'. */
  statuses: Record<string, number>
  /** Devices by health state: online, offline, unreachable, rebooting, slow. */
  devices: Record<string, number>
}

export const SUMMARY_MESSAGE = 'fleet: the last second'

/**
 * A fleet's one line a second at info, in place of a line per request nobody reads under load: the requests its
 * devices answered in that second by status, and its devices by health. Written only when something happened:
 * a request answered, or a device's health changed. It ticks on the fleet's clock, so under a manual clock it
 * moves only with advance(), and holds neither the process open nor a test's count of pending waits.
 */
export class FleetSummary {
  readonly #devices: readonly SummarizedDevice[]
  readonly #clock: Clock
  readonly #log: SummaryLog
  #timer: ClockTimer | undefined
  /** Requests by status, summed over the devices, at the last tick. */
  #before = new Map<number, number>()
  #lastDevices = ''

  constructor (devices: readonly SummarizedDevice[], clock: Clock, log: SummaryLog) {
    this.#devices = devices
    this.#clock = clock
    this.#log = log
    this.#before = this.#totals()
    this.#lastDevices = JSON.stringify(this.#health())
  }

  start (): void {
    this.#timer = this.#clock.setTimer(this.#tick, SUMMARY_EVERY_MS, true)
  }

  stop (): void {
    if (this.#timer !== undefined) this.#clock.clearTimer(this.#timer)
    this.#timer = undefined
  }

  /** The second just gone, or undefined when nothing happened in it. */
  second (): FleetSecond | undefined {
    const now = this.#totals()
    const statuses: Record<string, number> = {}
    let requests = 0
    for (const [status, total] of now) {
      const count = total - (this.#before.get(status) ?? 0)
      if (count === 0) continue
      statuses[status === 0 ? 'dropped' : String(status)] = count
      requests += count
    }
    this.#before = now
    const devices = this.#health()
    const health = JSON.stringify(devices)
    const changed = health !== this.#lastDevices
    this.#lastDevices = health
    return requests > 0 || changed ? { requests, statuses, devices } : undefined
  }

  readonly #tick = (): void => {
    this.#timer = this.#clock.setTimer(this.#tick, SUMMARY_EVERY_MS, true)
    const second = this.second()
    if (second !== undefined && (this.#log.isLevelEnabled?.('info') ?? true)) this.#log.info(second, SUMMARY_MESSAGE)
  }

  #totals (): Map<number, number> {
    const totals = new Map<number, number>()
    for (const { counts } of this.#devices) {
      if (counts.total === 0) continue
      for (const [status, byOperation] of counts.byStatus) {
        let sum = 0
        for (const count of byOperation) sum += count
        totals.set(status, (totals.get(status) ?? 0) + sum)
      }
    }
    return totals
  }

  #health (): Record<string, number> {
    const devices: Record<string, number> = {}
    for (const { healthState } of this.#devices) devices[healthState] = (devices[healthState] ?? 0) + 1
    return devices
  }
}
