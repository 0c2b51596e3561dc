import type { FastifyInstance } from 'fastify'
import { registerDashboard } from '../admin-api/dashboard-page.js'
import { registerFleetAdmin, type FleetAdmin } from '../admin-api/fleet-routes.js'
import { adminApi, type HandClock } from '../admin-api/routes.js'
import { ADMIN_PREFIX } from '../contract/paths.js'
import type { TokenPolicy } from '../wire/token-policy.js'
import type { Device } from '../device/device.js'
import { registerMetrics } from '../admin-api/metrics-route.js'

export interface AdminAreaOptions {
  tokens: TokenPolicy
  fleet: FleetAdmin | undefined
  manualClock: HandClock | undefined
  /** The app's own device: a single mock-nvr's, whose metrics it serves when there is no fleet. */
  device: Device
}

/** /__admin: one device's admin API beside its own paths, or a fleet's; the metrics of its devices; and the dashboard. */
export async function registerAdminArea (app: FastifyInstance, { tokens, fleet, manualClock, device }: AdminAreaOptions): Promise<void> {
  if (fleet === undefined) await app.register(adminApi, { prefix: ADMIN_PREFIX, tokens, deviceOf: request => request.device, sharesDevicePort: true, ...(manualClock === undefined ? {} : { manualClock }) })
  else await registerFleetAdmin(app, tokens, fleet)
  const own = [device]
  await registerMetrics(app, tokens, fleet === undefined ? () => own : () => fleet.roster.entries.map(entry => entry.device))
  // Beside the admin plugin, not in it: the page's files are open, its calls are not.
  await registerDashboard(app)
}
