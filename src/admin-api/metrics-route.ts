import type { FastifyInstance } from 'fastify'
import type { Device } from '../device/device.js'
import { metricsRegistry } from '../metrics/device-metrics.js'
import { adminArea, requireBearer } from '../wire/area-guard.js'
import type { TokenPolicy } from '../wire/token-policy.js'
import { ADMIN_PREFIX } from '../contract/paths.js'
import { refuseOtherMethods } from '../wire/method-not-allowed.js'

export const METRICS_PATH = `${ADMIN_PREFIX}/metrics`

/** GET /__admin/metrics: the devices' metrics in Prometheus's text format, for the admin token only. */
export async function registerMetrics (app: FastifyInstance, tokens: TokenPolicy, devices: () => readonly Device[]): Promise<void> {
  const registry = metricsRegistry(devices)
  await app.register(async function metrics (scope) {
    scope.addHook('onRequest', requireBearer(adminArea(tokens)))
    scope.get(METRICS_PATH, { schema: { hide: true } }, async function scrape (_request, reply) {
      return await reply.type(registry.contentType).send(await registry.metrics())
    })
    refuseOtherMethods(scope, METRICS_PATH, ['GET', 'HEAD'])
  })
}
