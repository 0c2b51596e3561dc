import type { ValueProblem } from '../util/value-errors.js'
import type { ScopedToken } from './schemas.js'

export type { ScopedToken }

/** The scoped tokens merged by token: the same token given twice sees the cameras of both. */
export function mergeScopes (scoped: readonly ScopedToken[]): Map<string, ReadonlySet<string>> {
  const scopes = new Map<string, Set<string>>()
  for (const { token, cameras } of scoped) {
    const seen = scopes.get(token) ?? new Set<string>()
    for (const camera of cameras) seen.add(camera)
    scopes.set(token, seen)
  }
  return scopes
}

/**
 * The first scoped token that cannot be one: the admin token (which must never open the device API), or a token
 * already accepted for every camera (a token is one or the other). The checks are the policy's own, so the
 * server's stay constant-time.
 */
export function scopeConflict (scoped: readonly ScopedToken[], isRefused: (token: string) => boolean, seesEveryCamera: (token: string) => boolean): ValueProblem | undefined {
  for (const [index, { token }] of scoped.entries()) {
    if (isRefused(token)) return { path: `/${index}/token`, message: 'is the admin token, which must never open the device API' }
    if (seesEveryCamera(token)) return { path: `/${index}/token`, message: 'is also given as an all-camera token: a token either sees every camera or only its own' }
  }
  return undefined
}

/** A token policy whose scoped tokens can be replaced at run time: the server's, or the MSW handlers'. */
export interface ScopeHolder {
  /** Throws ScopedTokensError, changing nothing, when a token cannot be scoped. */
  setScopedTokens: (scoped: readonly ScopedToken[]) => void
}
