import { createHash, timingSafeEqual } from 'node:crypto'

import { readBearer, type Admission, type Admitted, type AuthOutcome } from '../contract/bearer.js'
import { mergeScopes, scopeConflict, type ScopedToken } from '../contract/scoped-tokens.js'
import { ScopedTokensError } from '../errors/errors.js'

/** How many accepted Authorization values are remembered before the memory is emptied. */
export const REMEMBERED_HEADERS = 1024

interface Scope {
  digest: Buffer
  cameras: ReadonlySet<string>
}

/**
 * Decides on bearer tokens: a fixed set, or, when none is configured, any non-empty token except the
 * refused ones (the admin token, which must never open the device API). Scoped tokens are accepted too,
 * and see only their cameras; every other accepted token sees every camera.
 */
export class TokenPolicy {
  readonly #digests: Buffer[]
  readonly #refused: Buffer[]
  #scopes: Scope[]
  // Accepted header values, so a client that sends the same header again costs one lookup, not a parse
  // and a hash. A lookup hashes the whole value and compares only on a hash match, so its time tells an
  // attacker nothing about a valid token. Emptied when full, so distinct tokens cannot grow it.
  readonly #accepted = new Map<string, Admitted>()

  constructor (tokens: readonly string[], refused: readonly string[] = [], scoped: readonly ScopedToken[] = []) {
    this.#digests = tokens.map(digest)
    this.#refused = refused.map(digest)
    this.#scopes = this.#checked(scoped)
  }

  get acceptsAnyToken (): boolean {
    return this.#digests.length === 0
  }

  /** Who the header lets in, with the cameras its token sees, or why it lets nobody in. */
  admit (authorization: string | undefined): Admission {
    if (authorization === undefined) return 'no_credentials'
    const remembered = this.#accepted.get(authorization)
    if (remembered !== undefined) return remembered
    const read = readBearer(authorization)
    if (typeof read === 'string') return read
    const presented = digest(read.token)
    // Both comparisons always run, so the time says nothing of whether, or how, a token is accepted.
    const cameras = scopeOf(presented, this.#scopes)
    const unscoped = this.#acceptsUnscoped(presented)
    if (cameras === undefined && !unscoped) return 'invalid_token'
    const admitted = { token: read.token, cameras }
    if (this.#accepted.size >= REMEMBERED_HEADERS) this.#accepted.clear()
    this.#accepted.set(authorization, admitted)
    return admitted
  }

  judge (authorization: string | undefined): AuthOutcome {
    const admission = this.admit(authorization)
    return typeof admission === 'string' ? admission : 'accepted'
  }

  /** Replaces the scoped tokens; throws ScopedTokensError, changing nothing, if one is the admin token or an all-camera one. */
  setScopedTokens (scoped: readonly ScopedToken[]): void {
    this.#scopes = this.#checked(scoped)
    this.#accepted.clear()
  }

  #checked (scoped: readonly ScopedToken[]): Scope[] {
    const conflict = scopeConflict(scoped, token => matchesAny(digest(token), this.#refused), token => matchesAny(digest(token), this.#digests))
    if (conflict !== undefined) throw new ScopedTokensError([conflict])
    return [...mergeScopes(scoped)].map(([token, cameras]) => ({ digest: digest(token), cameras }))
  }

  #acceptsUnscoped (presented: Buffer): boolean {
    if (this.acceptsAnyToken) return !matchesAny(presented, this.#refused)
    return matchesAny(presented, this.#digests)
  }
}

// Equal-length digests compared in constant time: the answer time says nothing about a token.
function matchesAny (presented: Buffer, known: readonly Buffer[]): boolean {
  let matched = false
  for (const candidate of known) matched = timingSafeEqual(presented, candidate) || matched
  return matched
}

// Every scope is compared, matched or not, as matchesAny does.
function scopeOf (presented: Buffer, scopes: readonly Scope[]): ReadonlySet<string> | undefined {
  let cameras: ReadonlySet<string> | undefined
  for (const scope of scopes) if (timingSafeEqual(presented, scope.digest)) cameras = scope.cameras
  return cameras
}

function digest (token: string): Buffer {
  return createHash('sha256').update(token).digest()
}
