import type { ScopedToken } from '../contract/schemas.js'

/** The defaults of the device settings startMockNvr and createNvrHandlers fill in: any token, no scoped tokens, any origin, seed 1. */
export const SHARED_OPTION_DEFAULTS = {
  tokens: [] as string[],
  scopedTokens: [] as ScopedToken[],
  corsOrigins: [] as string[],
  seed: 1
}
