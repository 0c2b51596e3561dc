import type { FastifyBaseLogger } from 'fastify'
import type { DataStore } from '../data/data-store.js'
import { verbsOf, type ControlVerbs } from '../control/control-verbs.js'
import type { DeviceEvent } from '../control/device-events.js'
import type { TokenPolicy } from '../wire/token-policy.js'
import { DeviceCore, type DeviceCoreOptions } from './device-core.js'
import { deviceArea, type BearerArea } from '../wire/area-guard.js'
import { DeviceHealth, type HealthReport } from '../health/device-health.js'
import type { HealthPlan } from '../health/health-spec.js'
import type { HealthSpec } from '../health/health-states.js'
import { DataDrift } from '../health/data-drift.js'
import type { Clock } from '../util/clock.js'
import type { DevicePort } from './device-port.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The device whose listener the request arrived on; the app's own device for inject(). */
    readonly device: Device
  }
}

/** What a device is made of; a device of a fleet shares its store's data with the devices of the same fixtures. */
export type DeviceParts = DeviceCoreOptions<DataStore, TokenPolicy>

/** What a device's health and drift follow. */
export interface DeviceSchedule {
  plan?: HealthPlan
  driftEvery?: number
}

/** What a device's life over time runs on: its schedule, its clock, its seed and its log. */
export interface DeviceLifeOptions {
  schedule: DeviceSchedule
  clock: Clock
  seed: number
  log: FastifyBaseLogger
}

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

/** Everything a test can change or ask of one device while it runs. */
export interface DeviceVerbs extends Omit<ControlVerbs, 'reset'>, HealthVerbs {
  /**
   * Back to the start: the start-up data, scoped tokens and rate limit, no faults, an empty journal, its health
   * and drift from their start; resolves once its port has followed (listening again if it was down).
   */
  reset: () => Promise<void>
}

/**
 * One simulated device, in one place: its parts without a port (DeviceCore: data, tokens, CORS policy, faults,
 * latency, rate limit, journal), and, once it has a port, its health and drift over time acted on that port.
 * Every plugin, hook and the fast path read it from the request (`request.device`), so one app serves any number
 * of devices.
 */
export class Device extends DeviceCore<DataStore, TokenPolicy> {
  /** The device API's bearer area, judged by this device's tokens. */
  readonly area: BearerArea
  /** Its health over time; none for a proxy (whose health is the real device's) or an app that only answers inject(). */
  readonly health: DeviceHealth | undefined
  readonly #life: DeviceLifeOptions | undefined
  #drift: DataDrift | undefined
  #port: DevicePort | undefined

  constructor (parts: DeviceParts, life?: DeviceLifeOptions) {
    super(parts)
    this.area = deviceArea(parts.tokens)
    this.#life = life
    this.health = life === undefined ? undefined : new DeviceHealth({ clock: life.clock, plan: life.schedule.plan, log: life.log, events: this.events })
  }

  /** Whether this token opens the device API: the admin token must never. */
  admits (token: string): boolean {
    // A fleet's devices made from the same options share the answer of neverAdmits, found once.
    return !this.tokens.neverAdmits(token) && this.tokens.judge(`Bearer ${token}`) === 'accepted'
  }

  /** The port the device listens on, once it has one. */
  get port (): DevicePort | undefined {
    return this.#port
  }

  /** Listens on its port, then starts its schedule and drift there; resolves with the port's number. */
  async listen (port: DevicePort, number: number, host: string): Promise<number> {
    const listened = await this.open(port, number, host)
    this.begin()
    return listened
  }

  /**
   * Listens on its port without starting its schedule and drift: a fleet starts them once every device listens,
   * in the devices' order, whatever order their ports were found in. Resolves with the port's number.
   */
  async open (port: DevicePort, number: number, host: string): Promise<number> {
    this.#port = port
    return await port.listen(number, host)
  }

  /** Starts its schedule and drift on the port it listens on. */
  begin (): void {
    this.#begin(this.#port as DevicePort)
  }

  #begin (port: DevicePort): void {
    // Every device that listens was given its life: startMockNvr and startMockFleet give each one.
    const { schedule, clock, seed, log } = this.#life as DeviceLifeOptions
    const health = this.health as DeviceHealth
    health.begin(port)
    if (schedule.driftEvery !== undefined) {
      this.#drift = new DataDrift({ clock, every: schedule.driftEvery, seed, device: this, events: this.events, log })
    }
  }

  /** Its health state now (online, offline, …), for a device served on a port: a fleet's devices all have a health. */
  get healthState (): string {
    return (this.health as DeviceHealth).state
  }

  /** Resolves once its port has done what its health last asked (closed, or listening again). */
  async settled (): Promise<void> {
    await this.health?.settled()
  }

  /** See DeviceVerbs.reset. */
  override async reset (): Promise<void> {
    super.reset()
    this.health?.reset()
    this.#drift?.reset()
    await this.settled()
  }

  /**
   * Stops every timer and lets go of every request its health holds, and on a manual clock of every request its
   * latency or faults hold; its port stays as it is until the app closes.
   */
  async stop (): Promise<void> {
    if (this.clock.manual) this.faultControl.release()
    this.#drift?.stop()
    await this.health?.stop()
  }

  /** Stops its timers and closes its port; requests in flight finish first. */
  async close (): Promise<void> {
    await this.stop()
    await this.#port?.close()
  }

  /** The verbs of its handle, each bound to this device. */
  verbs (): DeviceVerbs {
    // Every device a handle is made for has its life: startMockNvr and startMockFleet give it one.
    const health = this.health as DeviceHealth
    return {
      ...verbsOf(this),
      setHealth: async spec => {
        health.set(spec)
        await health.settled()
        return health.report()
      },
      health: () => health.report(),
      events: () => this.eventList(),
      reset: async () => await this.reset()
    }
  }
}
