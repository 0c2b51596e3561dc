import type { FastifyPluginAsync } from 'fastify'
import type { TokenPolicy } from '../wire/token-policy.js'
import { refuseUnknownPaths } from '../wire/method-not-allowed.js'
import type { JournalStreamLimits } from './journal-stream.js'
import type { DeviceOf } from './device-of.js'
import { guardAdminArea } from './routing.js'
import { registerJournalStream } from './journal-routes.js'
import { registerClock, type HandClock } from './clock-routes.js'
import { registerVerbRoutes } from './verb-routes.js'

export { registerClock, type HandClock }

export interface AdminApiOptions {
  /** The admin token, the only one that opens every admin call. */
  tokens: TokenPolicy
  /** The device a request acts on: its own, or the one a fleet's path names; throws an ApiError when there is none. */
  deviceOf: DeviceOf
  /** Limits of GET /__admin/requests/stream; each one missing takes its default. */
  streamLimits?: Partial<JournalStreamLimits>
  /**
   * The admin API shares the device's port (a single mock-nvr): a state that would close the port for good is
   * refused, since the admin API could not end it (see device-health-rules.ts).
   */
  sharesDevicePort?: boolean
  /** The device's clock, when moved by hand at /__admin/clock; the real one when absent. */
  manualClock?: HandClock
  /** Whether /__admin/clock is this plugin's: a single mock-nvr's, not a fleet's device's (the fleet has one clock). */
  ownsClock?: boolean
}

/**
 * The admin API: the handle's control verbs over HTTP, JSON in and out, behind its own bearer token. It acts
 * on one device, found from the request: a single mock-nvr's own, or the device a fleet's path names. What a verb
 * throws is answered by the one error handler: a checked body's problems as a 400 listing them.
 */
export const adminApi: FastifyPluginAsync<AdminApiOptions> = async function adminApi (app, { tokens, deviceOf, streamLimits, sharesDevicePort = false, manualClock, ownsClock = true }) {
  guardAdminArea(app, tokens)
  registerVerbRoutes(app, deviceOf, !sharesDevicePort ? undefined : manualClock === undefined ? 'real' : 'manual')
  registerJournalStream(app, deviceOf, streamLimits)
  if (ownsClock) registerClock(app, manualClock)
  // Unknown admin paths are routes of this plugin, so they need the admin token too.
  refuseUnknownPaths(app)
}
