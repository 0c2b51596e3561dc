import type { DataStore } from '../data/data-store.js'
import type { MockControl } from '../control/mock-control.js'
import type { CorsPolicy } from '../wire/cors.js'
import type { TokenPolicy } from '../wire/token-policy.js'
import { deviceArea, type BearerArea } from '../wire/area-guard.js'
import type { RequestGate } from '../wire/request-gate.js'
import type { DeviceHealth } from '../health/device-health.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The device whose listener the request arrived on; the app's own device for inject(). */
    readonly device: DeviceContext
  }
}

/** What a device is made of; a device of a fleet shares its store's data with the devices of the same fixtures. */
export interface DeviceParts {
  /** The device's name: nvr-001 in a fleet. */
  name: string
  store: DataStore
  tokens: TokenPolicy
  cors: CorsPolicy
  /** Its faults, latency and request journal. */
  control: MockControl
}

/**
 * One device's state, which every plugin, hook and the fast path read from the request (`request.device`)
 * instead of holding one device's objects: so one app serves any number of devices, each on its listener.
 */
export class DeviceContext {
  readonly name: string
  readonly store: DataStore
  readonly tokens: TokenPolicy
  readonly cors: CorsPolicy
  readonly control: MockControl
  /** The device API's bearer area, judged by this device's tokens and rate limit. */
  readonly area: BearerArea
  /** Stops requests before the fast path and Fastify when set; null lets every request through. */
  gate: RequestGate | null = null
  /** The device's health, once its port listens; none for a proxy or an app that only answers inject(). */
  health: DeviceHealth | undefined = undefined

  constructor ({ name, store, tokens, cors, control }: DeviceParts) {
    this.name = name
    this.store = store
    this.tokens = tokens
    this.cors = cors
    this.control = control
    this.area = deviceArea(tokens, control.rateLimiter)
  }
}
