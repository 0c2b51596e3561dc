import type { FastifyInstance } from 'fastify'
import type { Device } from '../device/device.js'
import { METRICS_CONTENT_TYPE, metricsStream } from '../metrics/device-metrics.js'
import { adminArea, requireBearer } from '../wire/area-guard.js'
import type { TokenPolicy } from '../wire/token-policy.js'
import { ADMIN_PREFIX } from '../contract/paths.js'
import { refuseOtherMethods } from '../wire/method-not-allowed.js'

export const METRICS_PATH = `${ADMIN_PREFIX}/metrics`

/**
 * GET /__admin/metrics: the devices' metrics in Prometheus's text format, for the admin token only. The text is
 * written a slice of devices per turn of the event loop, so a scrape of a large fleet never holds a device's answer.
 */
export async function registerMetrics (app: FastifyInstance, tokens: TokenPolicy, devices: () => readonly Device[]): Promise<void> {
  await app.register(async function metrics (scope) {
    scope.addHook('onRequest', requireBearer(adminArea(tokens)))
    scope.get(METRICS_PATH, { schema: { hide: true } }, async function scrape (request, reply) {
      reply.type(METRICS_CONTENT_TYPE)
      // HEAD: the headers alone, and no scrape.
      if (request.method === 'HEAD') return await reply.send()
      return await reply.send(metricsStream(devices()))
    })
    refuseOtherMethods(scope, METRICS_PATH, ['GET', 'HEAD'])
  })
}
