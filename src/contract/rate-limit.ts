import { Type } from '@sinclair/typebox'

/** Requests per second per token (a bucket of as many), from 1 to 1000000. */
export const RateLimitSchema = Type.Integer({ minimum: 1, maximum: 1_000_000 })

/** How many tokens' buckets are remembered; past it the oldest is forgotten, and starts full when it comes back. */
export const REMEMBERED_BUCKETS = 10_000

// Credit in thousandths of a request, so a clock in whole milliseconds keeps every sum exact.
const REQUEST = 1000

interface Bucket {
  credit: number
  at: number
}

/** What RateLimiter takes: requests per second per token (off when absent) and the clock, in milliseconds. */
export interface RateLimiterOptions {
  perSecond?: number
  /** The device's clock, in milliseconds; performance.now() for a limiter on its own. */
  now?: () => number
}

// One clock for every limiter that is given none.
const performanceNow = performance.now.bind(performance)

/**
 * The device's rate limit: per token, a bucket of `perSecond` requests that refills at `perSecond` a second,
 * continuously. Off, it holds nothing and its callers skip it on one boolean.
 */
export class RateLimiter {
  readonly #now: () => number
  // Made when a limit first counts a request: a device without one holds none.
  #buckets: Map<string, Bucket> | undefined
  #perSecond: number | undefined

  constructor ({ perSecond, now = performanceNow }: RateLimiterOptions = {}) {
    this.#now = now
    this.#perSecond = perSecond
  }

  get active (): boolean {
    return this.#perSecond !== undefined
  }

  /** Requests per second per token, or undefined when off. */
  get perSecond (): number | undefined {
    return this.#perSecond
  }

  /** Sets the limit (undefined turns it off); every token starts again with a full bucket. */
  set (perSecond: number | undefined): void {
    this.#perSecond = perSecond
    this.#buckets?.clear()
  }

  /**
   * Counts one request of this token: undefined when it is allowed, or the whole seconds (at least 1) until one
   * is, for Retry-After. A refused request takes nothing from the bucket.
   */
  take (token: string): number | undefined {
    const perSecond = this.#perSecond
    if (perSecond === undefined) return undefined
    const now = this.#now()
    const capacity = perSecond * REQUEST
    const buckets = this.#buckets ??= new Map()
    let bucket = buckets.get(token)
    if (bucket === undefined) {
      if (buckets.size >= REMEMBERED_BUCKETS) buckets.delete(buckets.keys().next().value as string)
      bucket = { credit: capacity, at: now }
      buckets.set(token, bucket)
    }
    // Credit refills by perSecond thousandths of a request each millisecond.
    bucket.credit = Math.min(capacity, bucket.credit + Math.max(0, now - bucket.at) * perSecond)
    bucket.at = now
    if (bucket.credit >= REQUEST) {
      bucket.credit -= REQUEST
      return undefined
    }
    const waitMs = (REQUEST - bucket.credit) / perSecond
    return Math.max(1, Math.ceil(waitMs / 1000))
  }
}
