import { createHash, timingSafeEqual } from 'node:crypto'

import { judgeBearer, type AuthOutcome } from '../contract/bearer.js'

/** How many accepted Authorization values are remembered before the memory is emptied. */
export const REMEMBERED_HEADERS = 1024

/**
 * Decides on bearer tokens: a fixed set, or, when none is configured, any non-empty token except the
 * refused ones (the admin token, which must never open the device API).
 */
export class TokenPolicy {
  readonly #digests: Buffer[]
  readonly #refused: Buffer[]
  // Accepted header values, so a client that sends the same header again costs one lookup, not a parse
  // and a hash. A lookup hashes the whole value and compares only on a hash match, so its time tells an
  // attacker nothing about a valid token. Emptied when full, so distinct tokens cannot grow it.
  readonly #accepted = new Set<string>()

  constructor (tokens: readonly string[], refused: readonly string[] = []) {
    this.#digests = tokens.map(digest)
    this.#refused = refused.map(digest)
  }

  get acceptsAnyToken (): boolean {
    return this.#digests.length === 0
  }

  judge (authorization: string | undefined): AuthOutcome {
    if (authorization === undefined) return 'no_credentials'
    if (this.#accepted.has(authorization)) return 'accepted'
    const outcome = judgeBearer(authorization, token => this.#accepts(token))
    if (outcome === 'accepted') {
      if (this.#accepted.size >= REMEMBERED_HEADERS) this.#accepted.clear()
      this.#accepted.add(authorization)
    }
    return outcome
  }

  #accepts (token: string): boolean {
    if (this.acceptsAnyToken) return this.#refused.length === 0 || !matchesAny(digest(token), this.#refused)
    return matchesAny(digest(token), this.#digests)
  }
}

// Equal-length digests compared in constant time: the answer time says nothing about a token.
function matchesAny (presented: Buffer, known: readonly Buffer[]): boolean {
  let matched = false
  for (const candidate of known) matched = timingSafeEqual(presented, candidate) || matched
  return matched
}

function digest (token: string): Buffer {
  return createHash('sha256').update(token).digest()
}
