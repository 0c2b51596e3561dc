import type { FastifyRequest, onRequestHookHandler } from 'fastify'
import type { AuthOutcome } from '../contract/bearer.js'
import { ADMIN_PREFIX, API_PREFIX, isUnder } from '../contract/paths.js'
import { apiErrors, type ApiError } from './errors.js'
import type { TokenPolicy } from './token-policy.js'
import type { RateLimiter } from '../contract/rate-limit.js'

/** An area behind a bearer token: where it is, the tokens that open it, and how it refuses the others. */
export interface BearerArea {
  prefix: string
  tokens: TokenPolicy
  refuse: (outcome: Exclude<AuthOutcome, 'accepted'>) => ApiError
  /** The area's rate limit per token, counted once a token is accepted. */
  limiter?: RateLimiter
}

/** The device API under /nvr/v1, rate-limited by `limiter` when it is on. */
export function deviceArea (tokens: TokenPolicy, limiter: RateLimiter): BearerArea {
  return { prefix: API_PREFIX, tokens, refuse: apiErrors.unauthorized, limiter }
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

/** Lets a refusal wait before it is answered (the device API's --latency); at once when absent. */
export type RefusalDelay = (request: FastifyRequest, answer: () => void) => void

/**
 * The onRequest hook of an area's plugin: its bearer check, then its rate limit, before anything else of the
 * plugin runs. Auth comes first: a request no token opens is a 401, and counts against no one.
 */
export function requireBearer (area: BearerArea | ((request: FastifyRequest) => BearerArea), delay?: RefusalDelay): onRequestHookHandler {
  const areaOf = typeof area === 'function' ? area : () => area
  return function requireBearer (request, _reply, done) {
    const { tokens, refuse, limiter } = areaOf(request)
    const admission = tokens.admit(request.headers.authorization)
    let refusal: ApiError | undefined
    if (typeof admission === 'string') refusal = refuse(admission)
    else if (limiter?.active === true) {
      const retryAfter = limiter.take(admission.token)
      if (retryAfter !== undefined) refusal = apiErrors.rateLimited(retryAfter)
    }
    if (refusal === undefined) done()
    else if (delay === undefined) done(refusal)
    else delay(request, () => done(refusal))
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
