import type { onRequestHookHandler } from 'fastify'
import type { AuthOutcome } from '../contract/bearer.js'
import { ADMIN_PREFIX, API_PREFIX, isUnder } from '../contract/paths.js'
import { apiErrors, type ApiError } from './errors.js'
import type { TokenPolicy } from './token-policy.js'

/** An area behind a bearer token: where it is, the tokens that open it, and how it refuses the others. */
export interface BearerArea {
  prefix: string
  tokens: TokenPolicy
  refuse: (outcome: Exclude<AuthOutcome, 'accepted'>) => ApiError
}

/** The device API under /nvr/v1, whose requests the pipeline decides (pipeline/decide.ts); its area refuses those answered before it. */
export function deviceArea (tokens: TokenPolicy): BearerArea {
  return { prefix: API_PREFIX, tokens, refuse: apiErrors.unauthorized }
}

/** The admin API under /__admin, another protection space with its own token. */
export function adminArea (tokens: TokenPolicy): BearerArea {
  return { prefix: ADMIN_PREFIX, tokens, refuse: apiErrors.adminUnauthorized }
}

/** The area's refusal of these credentials, or undefined when they open it. */
export function refusalIn ({ tokens, refuse }: BearerArea, authorization: string | undefined): ApiError | undefined {
  const outcome = tokens.judge(authorization)
  return outcome === 'accepted' ? undefined : refuse(outcome)
}

/** The onRequest hook of an area's plugin: its bearer check, before anything else of the plugin runs. */
export function requireBearer (area: BearerArea): onRequestHookHandler {
  return function requireBearer (request, _reply, done) {
    done(refusalIn(area, request.headers.authorization))
  }
}

/** The refusal of a request's credentials by the area its URL belongs to, or undefined when it may go on. */
export type AreaGuard = (url: string, authorization: string | undefined, deviceArea: BearerArea) => ApiError | undefined

/**
 * The bearer checks of the areas, for answers given before a route's own check has run (a malformed URL,
 * a missing Host): auth still comes first there. The device API's area is the request's device's.
 */
export function guardAreas (otherAreas: readonly BearerArea[]): AreaGuard {
  return function guardArea (url, authorization, deviceArea) {
    const area = isUnder(url, deviceArea.prefix) ? deviceArea : otherAreas.find(candidate => isUnder(url, candidate.prefix))
    return area === undefined ? undefined : refusalIn(area, authorization)
  }
}
