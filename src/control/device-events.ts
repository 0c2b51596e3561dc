import { Listeners } from '../util/listeners.js'
import type { HealthStateName } from '../health/health-states.js'
import type { DriftEdit } from '../health/drift.js'

/** Why a device's health changed: its schedule, a command (setHealth, the admin API), or a reset. */
export type HealthChangeCause = 'schedule' | 'command' | 'reset' | 'start'

/** A change of a device's health: the state it is in now, the phase where the state has several, and why. */
export interface HealthChange {
  kind: 'health'
  /** When it happened, by the device's clock, as an ISO timestamp. */
  time: string
  state: HealthStateName
  /** The phase of a state that has several (rebooting: down, then starting). */
  phase?: string
  /** 'start' is never recorded: the state a device starts in is no change. */
  cause: HealthChangeCause
}

/** The device's port was taken by another program while the device was offline: it stays offline. */
export interface PortTaken {
  kind: 'health'
  time: string
  state: 'offline'
  cause: 'port-taken'
  /** The port it could not take back. */
  port: number
  phase?: undefined
}

/** A change of health, of either cause. */
export type HealthEvent = HealthChange | PortTaken

/** An edit of the device's data by drift: a line renamed, moved, added or removed, at `time`. */
export type DataEvent = { kind: 'data' } & DriftEdit

/**
 * Events the device's own life records beside its requests: a change of health, an edit of its data. `kind`
 * tells them apart, and `cause` a port taken from the other changes of health.
 */
export type DeviceEvent = HealthEvent | DataEvent

/** Events kept by default; older ones are dropped first. */
export const DEFAULT_EVENTS_KEPT = 200

/** The last events of a device, oldest first, bounded so a device flapping for days keeps a constant size. */
export class DeviceEvents {
  readonly capacity: number
  #events: DeviceEvent[] = []
  /** Events of each kind since the device started, cleared by no reset: what its metrics count. */
  readonly totals: Record<DeviceEvent['kind'], number> = { health: 0, data: 0 }
  /** Told of each event as it is recorded (the journal streams listen). */
  readonly listeners = new Listeners<[event: DeviceEvent]>()

  constructor (capacity = DEFAULT_EVENTS_KEPT) {
    this.capacity = capacity
  }

  record (event: DeviceEvent): void {
    if (this.#events.length >= this.capacity) this.#events.shift()
    this.#events.push(event)
    this.totals[event.kind]++
    this.listeners.tell?.(event)
  }

  entries (): DeviceEvent[] {
    return [...this.#events]
  }

  clear (): void {
    this.#events = []
  }
}
