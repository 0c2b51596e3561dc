import type { TokenPolicy } from './token-policy.js'
import { apiErrors, type ApiError } from './errors.js'
import { ADMIN_PREFIX, API_PREFIX } from './prefixes.js'

/** The refusal of a request's credentials by the area its URL belongs to, or undefined when it may go on. */
export type AreaGuard = (url: string, authorization: string | undefined) => ApiError | undefined

/**
 * The bearer checks of /nvr/v1 and, when it is on, the admin API, for answers given before a route's own
 * check has run (a malformed URL, a missing Host): auth still comes first there.
 */
export function guardAreas (tokens: TokenPolicy, adminTokens: TokenPolicy | undefined): AreaGuard {
  return function guardArea (url, authorization) {
    if (isUnder(url, API_PREFIX)) {
      const outcome = tokens.judge(authorization)
      return outcome === 'accepted' ? undefined : apiErrors.unauthorized(outcome)
    }
    if (adminTokens !== undefined && isUnder(url, ADMIN_PREFIX)) {
      const outcome = adminTokens.judge(authorization)
      return outcome === 'accepted' ? undefined : apiErrors.adminUnauthorized(outcome)
    }
    return undefined
  }
}

/** Whether a URL as sent is the prefix or below it, as the router, which ignores a trailing slash, routes it. */
export function isUnder (url: string, prefix: string): boolean {
  if (!url.startsWith(prefix)) return false
  const next = url.charAt(prefix.length)
  return next === '' || next === '/' || next === '?'
}
