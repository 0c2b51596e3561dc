import type { DeviceContext } from './device-context.js'

/** One device of a fleet as its admin API lists it. */
export interface RosterEntry {
  readonly device: DeviceContext
  /** Its base URL, e.g. http://127.0.0.1:8081. */
  readonly url: string
}

/** The devices of a fleet, in order, and each by name: what the fleet's admin API acts on. */
export interface DeviceRoster {
  readonly entries: readonly RosterEntry[]
  find: (name: string) => RosterEntry | undefined
}
