import type { ScopedToken } from '../contract/scoped-tokens.js'

/** How much is served, as the answers of use() and resetData() report it. */
export interface DataSummary {
  cameras: number
  countingLines: number
}

/** How many scoped tokens are in force (distinct tokens; the tokens themselves are never given back). */
export interface ScopedTokensSummary {
  scopedTokens: number
}

/** The rate limit in force: requests per second per token, or null when off. */
export interface RateLimitSummary {
  rateLimit: number | null
}

/**
 * Each setting a running device takes a new value of (the rows of config/settings.ts with `runTime`): the value
 * its verb takes, and what the verb answers.
 */
export interface RunTimeSettingTypes {
  /** Tokens that see only some cameras; a refused list throws ScopedTokensError and changes nothing. */
  scopedTokens: { value: ScopedToken[], answer: ScopedTokensSummary }
  /** Requests per second per token (a burst of as many), null for off; anything else throws SettingError. */
  rateLimit: { value: number | null, answer: RateLimitSummary }
}

/**
 * The verbs that set them while the device runs: `setScopedTokens(scoped)` replaces the scoped tokens,
 * `setRateLimit(perSecond)` sets the rate limit (every token starts with a full bucket). Each answers the summary of
 * what is in force, and throws, changing nothing, if the value is refused.
 */
export type SettingVerbs = {
  [Key in keyof RunTimeSettingTypes as `set${Capitalize<Key>}`]: (value: RunTimeSettingTypes[Key]['value']) => RunTimeSettingTypes[Key]['answer']
}
