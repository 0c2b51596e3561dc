import type { FastifyInstance } from 'fastify'
import { registerDashboard } from '../admin-api/dashboard-page.js'
import { registerFleetAdmin, type FleetAdmin } from '../admin-api/fleet-routes.js'
import { adminApi, type HandClock } from '../admin-api/routes.js'
import { ADMIN_PREFIX } from '../contract/paths.js'
import type { TokenPolicy } from '../wire/token-policy.js'

export interface AdminAreaOptions {
  tokens: TokenPolicy
  fleet: FleetAdmin | undefined
  manualClock: HandClock | undefined
}

/** /__admin: one device's admin API beside its own paths, or a fleet's; and the dashboard. */
export async function registerAdminArea (app: FastifyInstance, { tokens, fleet, manualClock }: AdminAreaOptions): Promise<void> {
  if (fleet === undefined) await app.register(adminApi, { prefix: ADMIN_PREFIX, tokens, deviceOf: request => request.device, sharesDevicePort: true, ...(manualClock === undefined ? {} : { manualClock }) })
  else await registerFleetAdmin(app, tokens, fleet)
  // Beside the admin plugin, not in it: the page's files are open, its calls are not.
  await registerDashboard(app)
}
