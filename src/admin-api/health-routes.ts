import type { FastifyInstance } from 'fastify'
import type { Device } from '../device/device.js'
import type { DeviceHealth } from '../health/device-health.js'
import { apiErrors } from '../wire/errors.js'
import type { DeviceOf } from './device-of.js'
import { ok, route } from './routing.js'

/** What the clock makes of a state that closes a port the admin API shares; undefined when it shares none. */
export type SharedPortClock = 'real' | 'manual' | undefined

/** /health: the device's health read, or set (a bad state's HealthSpecError is the 400), answering once the port follows. */
export function registerHealthRoutes (app: FastifyInstance, deviceOf: DeviceOf, sharedPortClock: SharedPortClock): void {
  route(app, '/health', {
    GET: (request, reply) => ok(reply, healthOf(deviceOf(request)).report()),
    PUT: async (request, reply) => {
      const health = healthOf(deviceOf(request))
      const asked = setHealth(health, request.body, sharedPortClock)
      request.log.info({ health: request.body }, `admin: health set to ${asked.state}`)
      await health.settled()
      return ok(reply, health.report())
    }
  })
}

function healthOf (device: Device): DeviceHealth {
  // A proxy serves the target's answers, whose health is its own.
  if (device.health === undefined) throw apiErrors.routeNotFound()
  return device.health
}

// These close the port for a while, and with it an admin API that shares it.
const PORT_CLOSING_STATES: ReadonlySet<unknown> = new Set(['offline', 'rebooting'])

/**
 * Sets a state, unless the admin API shares the device's port (`sharedPortClock`) and the state would close that
 * port for good: on the real clock an offline without `for`; on the manual clock, which nothing could move while
 * the port is closed, any state that closes it.
 */
function setHealth (health: DeviceHealth, body: unknown, sharedPortClock: SharedPortClock) {
  const state = (body as { state?: unknown } | null)?.state
  if (sharedPortClock === 'manual' && PORT_CLOSING_STATES.has(state)) throw apiErrors.healthLocksOut(String(state))
  if (sharedPortClock === 'real' && state === 'offline' && (body as { for?: unknown }).for === undefined) {
    throw apiErrors.invalidBody([{ path: '/for', message: `is needed for ${String(state)} here: the admin API shares the port that goes away, so give the milliseconds after which it comes back` }])
  }
  return health.set(body)
}
