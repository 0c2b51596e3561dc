import { Type } from '@sinclair/typebox'
import { DelaySchema } from '../util/delay.js'
import { RateLimitSchema, ScopedTokensSchema, TokenSchema, type ScopedToken } from '../contract/schemas.js'

/**
 * The options startMockNvr and createNvrHandlers both take, with one schema, so a value either refuses the
 * other refuses too, in the same words.
 */
export const SharedOptionSchemas = {
  /** Accepted bearer tokens; when empty, any non-empty token is accepted. */
  tokens: Type.Array(TokenSchema),
  /** Origins a browser may call from (scheme://host[:port]); when empty, or only '*', any origin. */
  corsOrigins: Type.Array(Type.String({ minLength: 1 })),
  /** Seed of every random choice (generated data, delay ranges), so a run can be repeated. */
  seed: Type.Integer({ minimum: 0, maximum: 4294967295 }),
  /** Delay of every API request: milliseconds, or { min, max } for a random one (see seed). */
  latency: Type.Optional(DelaySchema),
  /**
   * Tokens that see only some cameras: `{ token, cameras }` each, accepted even when `tokens` lists others; any
   * camera outside a token's list, known or not, is 403 for it. The same token twice sees the cameras of both.
   */
  scopedTokens: ScopedTokensSchema,
  /** Requests per second per token under /nvr/v1, as a token bucket with a burst as large; then 429. Off when absent. */
  rateLimit: RateLimitSchema
}

/** Their defaults: any token, no scoped tokens, any origin, seed 1. */
export const SHARED_OPTION_DEFAULTS = {
  tokens: [] as string[],
  scopedTokens: [] as ScopedToken[],
  corsOrigins: [] as string[],
  seed: 1
}
