import { mergeScopes, scopeConflict, type ScopedToken } from './scoped-tokens.js'
import { ScopedTokensError } from '../errors/errors.js'

/** How a request's Authorization header was judged; the failures follow RFC 6750 §3.1. */
export type AuthOutcome = 'accepted' | 'no_credentials' | 'invalid_request' | 'invalid_token'

export const AUTH_REALM = 'mock-nvr'
/** The admin API is another protection space, with its own token. */
export const ADMIN_REALM = 'mock-nvr admin'

/** Why an Authorization header lets nobody in. */
export type AuthFailure = Exclude<AuthOutcome, 'accepted'>

/** A request's credentials let in: by which token, seeing which cameras (undefined: every camera). */
export interface Admitted {
  token: string
  cameras: ReadonlySet<string> | undefined
}

/** What a token policy makes of an Authorization header: who it lets in, or why not (RFC 6750 §3.1). */
export type Admission = Admitted | AuthFailure

/** Whether the admitted credentials see this camera. */
export function sees (admission: Admission, cameraId: string): boolean {
  return typeof admission !== 'string' && (admission.cameras === undefined || admission.cameras.has(cameraId))
}

/**
 * Reads the bearer token of an Authorization header: another scheme counts as no credentials, and "Bearer" with
 * no token or with more than one word is a malformed request. Whether the token is accepted is the policy's call.
 */
export function readBearer (authorization: string | undefined): { token: string } | AuthFailure {
  if (authorization === undefined) return 'no_credentials'
  const space = authorization.indexOf(' ')
  const scheme = space === -1 ? authorization : authorization.slice(0, space)
  if (scheme.toLowerCase() !== 'bearer') return 'no_credentials'
  const token = space === -1 ? '' : authorization.slice(space + 1).replace(/^ +/, '')
  if (token === '' || /\s/.test(token)) return 'invalid_request'
  return { token }
}

/** The WWW-Authenticate value for a refused request. */
export function bearerChallenge (outcome: Exclude<AuthOutcome, 'accepted'>, realm = AUTH_REALM): string {
  const base = `Bearer realm="${realm}"`
  return outcome === 'no_credentials' ? base : `${base}, error="${outcome}"`
}

/**
 * Bearer tokens compared as plain strings, for where there is no node:crypto (the MSW handlers): a fixed
 * set, or, when none is given, any non-empty token; scoped tokens see only their cameras. The server compares
 * digests in constant time instead.
 */
export class PlainTokenPolicy {
  readonly #tokens: ReadonlySet<string>
  #scopes: ReadonlyMap<string, ReadonlySet<string>>

  constructor (tokens: readonly string[] = [], scoped: readonly ScopedToken[] = []) {
    this.#tokens = new Set(tokens)
    this.#scopes = this.#checked(scoped)
  }

  get acceptsAnyToken (): boolean {
    return this.#tokens.size === 0
  }

  admit (authorization: string | undefined): Admission {
    const read = readBearer(authorization)
    if (typeof read === 'string') return read
    const cameras = this.#scopes.get(read.token)
    return cameras !== undefined || this.acceptsAnyToken || this.#tokens.has(read.token) ? { token: read.token, cameras } : 'invalid_token'
  }

  judge (authorization: string | undefined): AuthOutcome {
    const admission = this.admit(authorization)
    return typeof admission === 'string' ? admission : 'accepted'
  }

  /** Replaces the scoped tokens; throws ScopedTokensError, changing nothing, if one is already an all-camera token. */
  setScopedTokens (scoped: readonly ScopedToken[]): void {
    this.#scopes = this.#checked(scoped)
  }

  #checked (scoped: readonly ScopedToken[]): Map<string, ReadonlySet<string>> {
    const conflict = scopeConflict(scoped, () => false, token => this.#tokens.has(token))
    if (conflict !== undefined) throw new ScopedTokensError([conflict])
    return mergeScopes(scoped)
  }
}
