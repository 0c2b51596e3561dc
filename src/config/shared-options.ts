import { Type } from '@sinclair/typebox'
import { DelaySchema } from '../util/delay.js'

/**
 * The options startMockNvr and createNvrHandlers both take, with one schema, so a value either refuses the
 * other refuses too, in the same words.
 */
export const SharedOptionSchemas = {
  /** Accepted bearer tokens; when empty, any non-empty token is accepted. */
  tokens: Type.Array(Type.String({ minLength: 1, pattern: '^\\S+$' })),
  /** Origins a browser may call from (scheme://host[:port]); when empty, or only '*', any origin. */
  corsOrigins: Type.Array(Type.String({ minLength: 1 })),
  /** Seed of every random choice (generated data, delay ranges), so a run can be repeated. */
  seed: Type.Integer({ minimum: 0, maximum: 4294967295 }),
  /** Delay of every API request: milliseconds, or { min, max } for a random one (see seed). */
  latency: Type.Optional(DelaySchema)
}

/** Their defaults: any token, any origin, seed 1. */
export const SHARED_OPTION_DEFAULTS = {
  tokens: [] as string[],
  corsOrigins: [] as string[],
  seed: 1
}
