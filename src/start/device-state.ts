import { MockControl } from '../control/mock-control.js'
import { Device, type DeviceLifeOptions } from '../device/device.js'
import type { DataStore } from '../data/data-store.js'
import type { ResolvedOptions } from '../config/options-schema.js'
import { CorsPolicy } from '../wire/cors.js'
import { TokenPolicy } from '../wire/token-policy.js'
import { toDelayRange, type DelayRange } from '../util/delay.js'

/** What a device's state may also take: the target a proxy forwards to, and the rate limit's clock for a test. */
export interface DeviceExtras {
  proxiedTarget?: string
  now?: () => number
}

/**
 * A device from its options: its tokens and scoped tokens, CORS, faults, latency, rate limit and journal, on its
 * store; with `life`, its health and drift over time too.
 */
export function deviceState (name: string, options: ResolvedOptions, store: DataStore, { proxiedTarget, now }: DeviceExtras = {}, life?: DeviceLifeOptions): Device {
  // With no --token any token opens the device API, except the admin token.
  const tokens = new TokenPolicy(options.tokens, options.adminToken === undefined ? [] : [options.adminToken], options.scopedTokens)
  const control = new MockControl({
    store,
    latency: latencyRange(options),
    allowPrefer: options.allowPrefer,
    seed: options.seed,
    journalSize: options.journalSize,
    ...(proxiedTarget === undefined ? {} : { proxiedTarget }),
    access: tokens,
    scopedTokens: options.scopedTokens,
    ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
    ...(now === undefined ? {} : { now })
  })
  return new Device({ name, store, tokens, cors: new CorsPolicy(options.corsOrigins), control }, life)
}

function latencyRange ({ latency }: ResolvedOptions): DelayRange | undefined {
  // resolveOptions has refused a backwards range.
  return latency === undefined ? undefined : toDelayRange(latency) as DelayRange
}
