import type { FastifyInstance } from 'fastify'
import { API_PREFIX } from '../contract/paths.js'
import { countingLinesApi } from '../device-api/routes.js'
import type { TargetProxy } from '../target-proxy/target-proxy.js'

/** /nvr/v1: served from each device's data, or forwarded to the target behind the device's faults. */
export async function registerApiArea (app: FastifyInstance, proxy: TargetProxy | undefined): Promise<void> {
  if (proxy === undefined) {
    await app.register(countingLinesApi, { prefix: API_PREFIX })
    return
  }
  // Loaded only for a proxy, as the proxy itself is.
  /* c8 ignore next: tsx wraps each import() in a CommonJS interop check that an ES module never takes */
  const { targetProxyApi } = await import('../target-proxy/proxy-routes.js')
  await app.register(targetProxyApi, { prefix: API_PREFIX, proxy })
}
