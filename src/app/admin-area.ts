import type { FastifyInstance } from 'fastify'
import type { FleetAdmin } from '../admin-api/fleet-routes.js'
import type { HandClock } from '../admin-api/routes.js'
import { ADMIN_PREFIX } from '../contract/paths.js'
import type { TokenPolicy } from '../wire/token-policy.js'
import type { Device } from '../device/device.js'

export interface AdminAreaOptions {
  tokens: TokenPolicy
  fleet: FleetAdmin | undefined
  manualClock: HandClock | undefined
  /** The app's own device: a single mock-nvr's, whose metrics it serves when there is no fleet. */
  device: Device
}

/**
 * /__admin: one device's admin API beside its own paths, or a fleet's; the metrics of its devices; the MCP endpoint
 * over the same verbs (mcp/mount.ts); and the dashboard.
 * Their code is loaded here, only when an admin token turns them on.
 */
export async function registerAdminArea (app: FastifyInstance, { tokens, fleet, manualClock, device }: AdminAreaOptions): Promise<void> {
  /* c8 ignore next: tsx wraps each import() in a CommonJS interop check that an ES module never takes */
  const { registerDashboard } = await import('../admin-api/dashboard-page.js')
  if (fleet === undefined) {
    /* c8 ignore next: tsx wraps each import() in a CommonJS interop check that an ES module never takes */
    const { adminApi } = await import('../admin-api/routes.js')
    await app.register(adminApi, { prefix: ADMIN_PREFIX, tokens, deviceOf: request => request.device, sharesDevicePort: true, ...(manualClock === undefined ? {} : { manualClock }) })
  } else {
    /* c8 ignore next: tsx wraps each import() in a CommonJS interop check that an ES module never takes */
    const { registerFleetAdmin } = await import('../admin-api/fleet-routes.js')
    await registerFleetAdmin(app, tokens, fleet)
  }
  /* c8 ignore next: tsx wraps each import() in a CommonJS interop check that an ES module never takes */
  const { registerMetrics } = await import('../admin-api/metrics-route.js')
  const own = [device]
  await registerMetrics(app, tokens, fleet === undefined ? () => own : () => fleet.roster.entries.map(entry => entry.device))
  /* c8 ignore next: tsx wraps each import() in a CommonJS interop check that an ES module never takes */
  const { registerMcpEndpoint } = await import('../mcp/mount.js')
  await registerMcpEndpoint(app, tokens, fleet !== undefined)
  // Beside the admin plugin, not in it: the page's files are open, its calls are not.
  await registerDashboard(app)
}
