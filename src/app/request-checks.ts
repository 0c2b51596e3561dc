import type { FastifyError, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify'
import { ADMIN_PREFIX, API_PREFIX, isUnder } from '../contract/paths.js'
import type { AreaGuard } from '../wire/area-guard.js'
import { apiErrors, toApiError } from '../wire/errors.js'
import { sendApiError } from '../wire/error-handler.js'
import { refuseAtTheEdge } from './http-edges.js'
import { afterWait } from '../device-api/carry-out.js'
import { answerCors, applyCors } from './cors-answers.js'
import { refusal as refusalPlan } from '../pipeline/decide.js'
import type { ListenerRole } from './http-server.js'
import { HEALTHZ_PATH } from './healthz.js'

/** The role of the listener a request arrived on. */
export type RoleOfRequest = (request: FastifyRequest) => ListenerRole

/**
 * The one hook for every request, first of all (a hook costs on every request, and these are a few checks): CORS,
 * the areas a listener serves, the edges of HTTP, with the area's 401 first and --latency under /nvr/v1.
 */
export function checkEveryRequestOf (roleOfRequest: RoleOfRequest, guardArea: AreaGuard): onRequestHookHandler {
  return function checkEveryRequest (request, reply, done) {
    const role = roleOfRequest(request)
    const { device } = role
    if (answerCors(device.cors, request, reply)) return
    // A fleet's device ports serve no admin API, and its control port nothing else but /healthz, for probes.
    if (!(role.api && role.admin) && isUnder(request.url, ADMIN_PREFIX) !== role.admin && !(role.admin && isUnder(request.url, HEALTHZ_PATH))) {
      done(apiErrors.routeNotFound())
      return
    }
    const refusal = refuseAtTheEdge(request, reply)
    if (refusal === undefined) {
      done()
      return
    }
    const answer = guardArea(request.url, request.headers.authorization, device.area) ?? refusal
    if (isUnder(request.url, API_PREFIX)) afterWait(request, device, refusalPlan(device, answer), () => done(answer))
    else done(answer)
  }
}

/** A malformed URL is refused before routing, so no hook has run: CORS and the area's bearer check are applied here. */
export function answerFrameworkErrorOf (roleOfRequest: RoleOfRequest, guardArea: AreaGuard) {
  return function answerFrameworkError (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
    const { device } = roleOfRequest(request)
    applyCors(device.cors, request, reply)
    const refusal = guardArea(request.url, request.headers.authorization, device.area) ?? toApiError(error)
    // Under /nvr/v1 it waits for --latency, as every answer there does.
    const plan = isUnder(request.url, API_PREFIX) ? refusalPlan(device, refusal) : undefined
    const answer = () => {
      sendApiError(reply, refusal)
      // Answered before routing, so the log controller never sees it.
      device.recordRefusedBeforeRouting(request, reply.statusCode, plan?.waitMs ?? 0)
    }
    if (plan === undefined) answer()
    else afterWait(request, device, plan, answer)
  }
}
