import { Listeners } from '../util/listeners.js'

/** Events the device's own life records beside its requests: a change of health, an edit of its data. */
export interface DeviceEvent {
  kind: 'health' | 'data'
  /** When it happened, by the schedules' clock, as an ISO timestamp. */
  time: string
  [detail: string]: unknown
}

/** Events kept by default; older ones are dropped first. */
export const DEFAULT_EVENTS_KEPT = 200

/** The last events of a device, oldest first, bounded so a device flapping for days keeps a constant size. */
export class DeviceEvents {
  readonly capacity: number
  #events: DeviceEvent[] = []
  /** Told of each event as it is recorded (the journal streams listen). */
  readonly listeners = new Listeners<[event: DeviceEvent]>()

  constructor (capacity = DEFAULT_EVENTS_KEPT) {
    this.capacity = capacity
  }

  record (event: DeviceEvent): void {
    if (this.#events.length >= this.capacity) this.#events.shift()
    this.#events.push(event)
    this.listeners.tell?.(event)
  }

  entries (): DeviceEvent[] {
    return [...this.#events]
  }

  clear (): void {
    this.#events = []
  }
}
