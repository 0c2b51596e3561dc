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

/** The digests a policy judges by, made once and shared by its siblings (the devices of a fleet with the same tokens). */
interface Known {
  readonly digests: readonly Buffer[]
  readonly refused: readonly Buffer[]
  /** The scoped tokens it was made with, which a sibling starts with. */
  readonly scopes: readonly Scope[]
  /** Whether a token was found never admitted, once for the policy and its siblings. */
  readonly neverAdmitted: Map<string, boolean>
}

/**
 * Decides on bearer tokens: a fixed set, or, when none is configured, any non-empty token except the
 * refused ones (the admin token, which must never open the device API). Scoped tokens are accepted too,
 * and see only their cameras; every other accepted token sees every camera.
 */
export class TokenPolicy {
  #known: Known
  #scopes: readonly Scope[]
  // Accepted header values, so a client that sends the same header again costs one lookup, not a parse
  // and a hash. A lookup hashes the whole value and compares only on a hash match, so its time tells an
  // attacker nothing about a valid token. Emptied when full, so distinct tokens cannot grow it; made on
  // the first token accepted, so a device nobody calls holds none.
  #accepted: Map<string, Admitted> | undefined

  constructor (tokens: readonly string[], refused: readonly string[] = [], scoped: readonly ScopedToken[] = []) {
    this.#known = { digests: tokens.map(digest), refused: refused.map(digest), scopes: [], neverAdmitted: new Map() }
    this.#scopes = this.#checked(scoped)
    this.#known = { ...this.#known, scopes: this.#scopes }
  }

  /**
   * A policy of the same tokens, refused tokens and scoped tokens, sharing their digests: from then on it has
   * its own scoped tokens (setScopedTokens changes this one alone) and its own memory of accepted headers.
   */
  sibling (): TokenPolicy {
    const sibling = new TokenPolicy([])
    sibling.#known = this.#known
    sibling.#scopes = this.#known.scopes
    return sibling
  }

  get acceptsAnyToken (): boolean {
    return this.#known.digests.length === 0
  }

  /** Who the header lets in, with the cameras its token sees, or why it lets nobody in. */
  admit (authorization: string | undefined): Admission {
    if (authorization === undefined) return 'no_credentials'
    const remembered = this.#accepted?.get(authorization)
    if (remembered !== undefined) return remembered
    const read = readBearer(authorization)
    if (typeof read === 'string') return read
    const presented = digest(read.token)
    // Both comparisons always run, so the time says nothing of whether, or how, a token is accepted.
    const cameras = scopeOf(presented, this.#scopes)
    const unscoped = this.#acceptsUnscoped(presented)
    if (cameras === undefined && !unscoped) return 'invalid_token'
    const admitted = { token: read.token, cameras }
    const accepted = this.#accepted ??= new Map()
    if (accepted.size >= REMEMBERED_HEADERS) accepted.clear()
    accepted.set(authorization, admitted)
    return admitted
  }

  judge (authorization: string | undefined): AuthOutcome {
    const admission = this.admit(authorization)
    return typeof admission === 'string' ? admission : 'accepted'
  }

  /**
   * Whether no header ever opens with this token, whatever the scoped tokens: a refused token that is not one of
   * the tokens (a scoped token is never a refused one). Found once for a policy and its siblings.
   */
  neverAdmits (token: string): boolean {
    const { neverAdmitted, refused, digests } = this.#known
    let found = neverAdmitted.get(token)
    if (found === undefined) {
      const presented = digest(token)
      found = matchesAny(presented, refused) && !matchesAny(presented, digests)
      neverAdmitted.set(token, found)
    }
    return found
  }

  /** Replaces the scoped tokens; throws ScopedTokensError, changing nothing, if one is the admin token or an all-camera one. */
  setScopedTokens (scoped: readonly ScopedToken[]): void {
    this.#scopes = this.#checked(scoped)
    this.#accepted?.clear()
  }

  #checked (scoped: readonly ScopedToken[]): Scope[] {
    const { refused, digests } = this.#known
    const conflict = scopeConflict(scoped, token => matchesAny(digest(token), refused), token => matchesAny(digest(token), digests))
    if (conflict !== undefined) throw new ScopedTokensError([conflict])
    return [...mergeScopes(scoped)].map(([token, cameras]) => ({ digest: digest(token), cameras }))
  }

  #acceptsUnscoped (presented: Buffer): boolean {
    if (this.acceptsAnyToken) return !matchesAny(presented, this.#known.refused)
    return matchesAny(presented, this.#known.digests)
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
