/** How a request's Authorization header was judged; the failures follow RFC 6750 §3.1. */
export type AuthOutcome = 'accepted' | 'no_credentials' | 'invalid_request' | 'invalid_token'

export const AUTH_REALM = 'mock-nvr'
/** The admin API is another protection space, with its own token. */
export const ADMIN_REALM = 'mock-nvr admin'

/**
 * Judges an Authorization header: another scheme counts as no credentials, "Bearer" with no token or
 * with more than one word is a malformed request, and the token itself is left to `accepts`.
 */
export function judgeBearer (authorization: string | undefined, accepts: (token: string) => boolean): AuthOutcome {
  if (authorization === undefined) return 'no_credentials'
  const space = authorization.indexOf(' ')
  const scheme = space === -1 ? authorization : authorization.slice(0, space)
  if (scheme.toLowerCase() !== 'bearer') return 'no_credentials'
  const token = space === -1 ? '' : authorization.slice(space + 1).replace(/^ +/, '')
  if (token === '' || /\s/.test(token)) return 'invalid_request'
  return accepts(token) ? 'accepted' : 'invalid_token'
}

/** The WWW-Authenticate value for a refused request. */
export function bearerChallenge (outcome: Exclude<AuthOutcome, 'accepted'>, realm = AUTH_REALM): string {
  const base = `Bearer realm="${realm}"`
  return outcome === 'no_credentials' ? base : `${base}, error="${outcome}"`
}

/**
 * Bearer tokens compared as plain strings, for where there is no node:crypto (the MSW handlers): a fixed
 * set, or, when none is given, any non-empty token. The server compares digests in constant time instead.
 */
export class PlainTokenPolicy {
  readonly #tokens: ReadonlySet<string>

  constructor (tokens: readonly string[] = []) {
    this.#tokens = new Set(tokens)
  }

  get acceptsAnyToken (): boolean {
    return this.#tokens.size === 0
  }

  judge (authorization: string | undefined): AuthOutcome {
    return judgeBearer(authorization, token => this.acceptsAnyToken || this.#tokens.has(token))
  }
}
