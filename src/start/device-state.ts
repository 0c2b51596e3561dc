import { MockControl } from '../control/mock-control.js'
import { DeviceContext } from '../device/device-context.js'
import type { DataStore } from '../data/data-store.js'
import type { ResolvedOptions } from '../config/options.js'
import { CorsPolicy } from '../wire/cors.js'
import { TokenPolicy } from '../wire/token-policy.js'
import { toDelayRange, type DelayRange } from '../util/delay.js'

/** A device's state from its options: its tokens, CORS, faults, latency and journal, on its store. */
export function deviceState (name: string, options: ResolvedOptions, store: DataStore): DeviceContext {
  // With no --token any token opens the device API, except the admin token.
  const tokens = new TokenPolicy(options.tokens, options.adminToken === undefined ? [] : [options.adminToken])
  const control = new MockControl({ store, latency: latencyRange(options), allowPrefer: options.allowPrefer, seed: options.seed, journalSize: options.journalSize })
  return new DeviceContext({ name, store, tokens, cors: new CorsPolicy(options.corsOrigins), control })
}

function latencyRange ({ latency }: ResolvedOptions): DelayRange | undefined {
  // resolveOptions has refused a backwards range.
  return latency === undefined ? undefined : toDelayRange(latency) as DelayRange
}
