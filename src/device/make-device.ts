import { Device, type DeviceLifeOptions } from './device.js'
import type { DataStore } from '../data/data-store.js'
import type { ResolvedOptions } from '../config/options-schema.js'
import { CorsPolicy } from '../wire/cors.js'
import { TokenPolicy } from '../wire/token-policy.js'
import type { Clock } from '../util/clock.js'

/** What a device's state runs on besides its options: its clock, and the target a proxy forwards to. */
export interface DeviceExtras {
  clock: Clock
  proxiedTarget?: string
}

/**
 * What devices made from the same resolved settings share: one CORS policy, and their tokens' digests. A fleet's
 * devices with the same settings have the same resolved arrays (fleet-options.ts), which are the keys here.
 */
export class SharedDeviceParts {
  readonly #cors = new WeakMap<readonly string[], CorsPolicy>()
  readonly #tokens = new WeakMap<readonly string[], Array<{ adminToken: string | undefined, scopedTokens: ResolvedOptions['scopedTokens'], policy: TokenPolicy }>>()

  /** The CORS policy of these origins; it never changes, so one serves every device. */
  cors (origins: readonly string[]): CorsPolicy {
    let policy = this.#cors.get(origins)
    if (policy === undefined) {
      policy = new CorsPolicy(origins)
      this.#cors.set(origins, policy)
    }
    return policy
  }

  /** A token policy of its own for a device, sharing the digests of every policy made from the same options. */
  tokens ({ tokens, adminToken, scopedTokens }: Pick<ResolvedOptions, 'tokens' | 'adminToken' | 'scopedTokens'>): TokenPolicy {
    let made = this.#tokens.get(tokens)
    if (made === undefined) {
      made = []
      this.#tokens.set(tokens, made)
    }
    const known = made.find(each => each.adminToken === adminToken && each.scopedTokens === scopedTokens)
    if (known !== undefined) return known.policy.sibling()
    // With no --token any token opens the device API, except the admin token.
    const policy = new TokenPolicy(tokens, adminToken === undefined ? [] : [adminToken], scopedTokens)
    made.push({ adminToken, scopedTokens, policy })
    return policy.sibling()
  }
}

/**
 * A device from its options: its tokens, CORS and the settings it acts on as it runs, on its store; with `life`, its health and drift over time too. Devices made with the same `shared` share what their
 * options make alike.
 */
export function makeDevice (name: string, options: ResolvedOptions, store: DataStore, { proxiedTarget, clock }: DeviceExtras, life?: DeviceLifeOptions, shared = new SharedDeviceParts()): Device {
  return new Device({
    name,
    store,
    tokens: shared.tokens(options),
    cors: shared.cors(options.corsOrigins),
    clock,
    settings: options,
    ...(proxiedTarget === undefined ? {} : { proxiedTarget })
  }, life)
}
