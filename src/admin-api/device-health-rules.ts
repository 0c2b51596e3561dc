import type { Device } from '../device/device.js'
import type { DeviceHealth, HealthReport } from '../health/device-health.js'
import { apiErrors } from '../wire/errors.js'

/** What the clock makes of a state that closes a port the admin API shares; undefined when it shares none. */
export type SharedPortClock = 'real' | 'manual' | undefined

/** The device's health; a proxy's is the target's own, so its /health is a 404. */
export function healthOf (device: Device): DeviceHealth {
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
export async function setHealth (health: DeviceHealth, body: unknown, sharedPortClock: SharedPortClock): Promise<HealthReport> {
  const state = (body as { state?: unknown } | null)?.state
  if (sharedPortClock === 'manual' && PORT_CLOSING_STATES.has(state)) throw apiErrors.healthLocksOut(String(state))
  if (sharedPortClock === 'real' && state === 'offline' && (body as { for?: unknown }).for === undefined) {
    throw apiErrors.invalidBody([{ path: '/for', message: `is needed for ${String(state)} here: the admin API shares the port that goes away, so give the milliseconds after which it comes back` }])
  }
  health.set(body)
  await health.settled()
  return health.report()
}
