import type { FastifyBaseLogger } from 'fastify'
import type { DeviceListener } from '../app/device-listener.js'
import type { DeviceContext } from '../device/device-context.js'
import type { DeviceEvent } from '../control/device-events.js'
import { OptionsError } from '../config/options.js'
import { DeviceHealth, type HealthReport } from '../health/device-health.js'
import { DataDrift } from '../health/data-drift.js'
import type { HealthSpec } from '../health/health-states.js'
import { ManualClock, type Clock } from '../util/clock.js'
import type { DeviceSchedule } from './device-schedule.js'
import { healthPort } from './health-port.js'

/** What a device's handle gives of its health. */
export interface HealthVerbs {
  /**
   * Puts the device in a health state now (`{ state: 'rebooting', down: 2000, starting: 3000 }`); resolves once
   * its port does what the state asks (closed, listening again). Throws HealthSpecError naming each problem.
   */
  setHealth: (spec: HealthSpec) => Promise<HealthReport>
  /** The device's health now, and the changes its schedule makes next. */
  health: () => HealthReport
  /** The changes of health and the data edits (drift), oldest first. */
  events: () => DeviceEvent[]
}

/** The schedules' clock as a handle gives it. */
export interface HandleClock {
  /** Milliseconds since the epoch, by this clock. */
  now: () => number
  /** Moves a manual clock on by `ms`, running every change due on the way; resolves once the ports follow. Throws OptionsError on the real clock. */
  advance: (ms: number) => Promise<void>
  /** Timers waiting on a manual clock (a change of health, a drift edit, a slow answer); 0 on the real one. */
  readonly pending: number
}

/** A device's life over time: its health and the drift of its data, on the schedules' clock. */
export class DeviceLife {
  readonly health: DeviceHealth
  readonly #device: DeviceContext
  readonly #schedule: DeviceSchedule
  readonly #clock: Clock
  readonly #seed: number
  readonly #log: FastifyBaseLogger
  #drift: DataDrift | undefined

  constructor ({ device, schedule, clock, seed, log }: { device: DeviceContext, schedule: DeviceSchedule, clock: Clock, seed: number, log: FastifyBaseLogger }) {
    this.#device = device
    this.#schedule = schedule
    this.#clock = clock
    this.#seed = seed
    this.#log = log
    this.health = new DeviceHealth({ clock, plan: schedule.plan, log, events: device.control.events })
    device.health = this.health
  }

  /** Starts the schedule and the drift, once the device's listener listens. */
  begin (listener: DeviceListener): void {
    const control = this.#device.control
    this.health.begin(healthPort(listener))
    const every = this.#schedule.driftEvery
    if (every !== undefined) this.#drift = new DataDrift({ clock: this.#clock, every, seed: this.#seed, control, events: control.events, log: this.#log })
    control.whenReset(() => {
      this.health.reset()
      this.#drift?.reset()
    })
  }

  /** Stops every timer and lets go of every request the health holds; before the listener closes. */
  async stop (): Promise<void> {
    this.#drift?.stop()
    await this.health.stop()
  }

  get verbs (): HealthVerbs {
    const health = this.health
    return {
      setHealth: async spec => {
        const report = health.set(spec)
        await health.settled()
        return { ...report, listening: health.listening }
      },
      health: () => health.report(),
      events: () => this.#device.control.events.entries()
    }
  }
}

/** The clock of a handle; `settled` resolves once every port has followed its last move. */
export function handleClock (clock: Clock, settled: () => Promise<unknown>): HandleClock {
  return {
    now: () => clock.now(),
    advance: async ms => {
      if (!(clock instanceof ManualClock)) throw new OptionsError('the clock is real: start with clock \'manual\' to move it by hand')
      if (!Number.isInteger(ms) || ms < 0) throw new OptionsError(`clock.advance takes whole milliseconds from 0, not ${String(ms)}`)
      clock.advance(ms)
      await settled()
    },
    get pending () {
      return clock instanceof ManualClock ? clock.pending : 0
    }
  }
}
