import { clearInterval, setInterval } from 'node:timers'
import type { Device } from './device.js'
import { mapInSteps } from '../util/in-steps.js'

/** A device of a roster, listening: what the admin API lists and acts on. */
export interface RosterEntry {
  readonly device: Device
  /** Its base URL, e.g. http://127.0.0.1:8081. */
  readonly url: string
}

/** The devices of a roster, in order, and each by name: what a fleet's admin API reads. */
export interface DeviceRoster {
  readonly entries: readonly RosterEntry[]
  find: (name: string) => RosterEntry | undefined
  /** Every device back to its start; resolves once every port has followed. */
  reset: () => Promise<void>
}

// Longer than anything waits, and the process never wakes for it: it only holds the event loop open.
const KEEP_ALIVE_MS = 2 ** 30

/**
 * The devices a mock-nvr serves (a fleet's, or a single mock-nvr's one), and the process's life while they
 * serve: the roster keeps the process running from its start to its close, whatever its devices' ports do, so
 * a mock whose every device is offline stays up until it is stopped. Verbs on every device resolve once every
 * port has followed.
 */
export class Roster implements DeviceRoster {
  readonly entries: RosterEntry[] = []
  readonly #byName = new Map<string, RosterEntry>()
  readonly #devices: readonly Device[]
  #keepAlive: NodeJS.Timeout | undefined

  constructor (devices: readonly Device[]) {
    this.#devices = devices
  }

  /** Adds a device that listens, at this URL, to what the admin API lists. */
  add (device: Device, url: string): void {
    const entry = { device, url }
    this.entries.push(entry)
    this.#byName.set(device.name, entry)
  }

  find (name: string): RosterEntry | undefined {
    return this.#byName.get(name)
  }

  /** Holds the process open until close(), as the listeners do while they listen. */
  holdProcess (): void {
    this.#keepAlive ??= setInterval(() => {}, KEEP_ALIVE_MS)
  }

  /** Resolves once every port has done what its device's health last asked. */
  async settled (): Promise<void> {
    await mapInSteps(this.#devices, async device => await device.settled())
  }

  /** Every device back to its start, a slice of devices per turn of the event loop; resolves once every port has followed. */
  async reset (): Promise<void> {
    await mapInSteps(this.#devices, async device => await device.reset())
  }

  /** Stops every device's timers and lets go of the requests their health holds; the process is no longer held. */
  async stop (): Promise<void> {
    clearInterval(this.#keepAlive)
    this.#keepAlive = undefined
    await Promise.all(this.#devices.map(async device => await device.stop()))
  }
}
