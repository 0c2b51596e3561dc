import type { GivenOptions } from './options-schema.js'

const TARGETS_OWN = 'the target\'s data and tokens are used'
const ONE_DEVICE = 'a proxy is one device, forwarding to one target'

/**
 * The options a proxy refuses, each with why: written once, for the library's options, the CLI's flags, their
 * twins and the help.
 */
export const NOT_FOR_PROXY: Readonly<Partial<Record<keyof GivenOptions | 'data', string>>> = {
  fixtures: TARGETS_OWN,
  generate: TARGETS_OWN,
  data: TARGETS_OWN,
  watch: TARGETS_OWN,
  tokens: TARGETS_OWN,
  scopedTokens: TARGETS_OWN,
  rateLimit: TARGETS_OWN,
  devices: ONE_DEVICE,
  fleet: ONE_DEVICE,
  manifest: ONE_DEVICE,
  controlPort: ONE_DEVICE,
  offlineFraction: ONE_DEVICE,
  flappingFraction: ONE_DEVICE,
  shard: ONE_DEVICE
}

/** The first option given that a proxy refuses, in the library's words; undefined when there is none. */
export function proxyRefusal (input: Readonly<Record<string, unknown>>): string | undefined {
  for (const [option, reason] of Object.entries(NOT_FOR_PROXY)) {
    const value = input[option]
    if (value !== undefined && value !== false && !(Array.isArray(value) && value.length === 0)) return `option ${option} does not apply to a proxy: ${reason}`
  }
  return undefined
}
