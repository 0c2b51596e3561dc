import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { JSON_CONTENT_TYPE } from '../contract/envelope.js'
import { readOperation } from '../contract/paths.js'
import type { Device } from '../device/device.js'
import { cutInHalf } from '../pipeline/decide.js'
import type { ApiRequest, Outcome, Plan } from '../pipeline/plan.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The id of the injected fault that shaped this request's answer, 'prefer', or null. */
    injectedFault: string | null
    /** How the device answers this request, once the pipeline has decided; null before, and outside /nvr/v1. */
    plan: Plan | null
    /** The journal's generation when the request began to wait; set only on a request that waits. */
    journalGeneration?: number
  }
}

/** The request as the pipeline reads it: the operation at its path and its decoded parameters, read as everywhere. */
export function apiRequestOf (request: FastifyRequest): ApiRequest {
  const prefer = request.headers.prefer
  const match = readOperation(request.url)
  return {
    method: request.method,
    authorization: request.headers.authorization,
    prefer: prefer === undefined ? undefined : String(prefer),
    operation: match?.row,
    params: match?.params ?? {}
  }
}

/** Runs `then` once the plan's wait has passed (at once when it has none), on the device's clock. */
export function afterWait (request: FastifyRequest, device: Device, plan: Plan, then: () => void): void {
  if (plan.waitMs === 0) {
    then()
    return
  }
  const log = request.log
  // A dev loop that forgot its clock is manual sees why a request hangs.
  if (device.clockIsManual) log.info({ delayMs: plan.waitMs, fault: plan.fault }, `answer held by the manual clock until it moves ${plan.waitMs} ms on (POST /__admin/clock)`)
  else log.debug({ delayMs: plan.waitMs, fault: plan.fault }, 'answer delayed')
  device.wait(request, plan.waitMs, then)
}

/**
 * Carries a plan out in an onRequest hook: its headers now, then after its wait the connection dropped, a refusal
 * handed to the error handler, or the request let on to its route, which sends the planned bytes (sendPlanned).
 * A cut body is cut as Fastify sends it, so an error's envelope, or a target's answer, is cut too.
 */
export function carryOut (plan: Plan, request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  request.injectedFault = plan.fault
  request.plan = plan
  const { headers } = plan
  for (let index = 0; index < headers.length; index += 2) reply.header(headers[index] as string, headers[index + 1])
  afterWait(request, request.device, plan, () => {
    const { outcome } = plan
    if (outcome.kind === 'drop') {
      dropConnection(request, reply)
      return
    }
    if (plan.cut) cutWhatIsSent(reply)
    if (outcome.kind === 'refuse') done(outcome.error)
    else done()
  })
}

/** The route handler of every operation: the prepared bytes the plan chose. */
export function sendPlanned (request: FastifyRequest, reply: FastifyReply): void {
  const { outcome } = request.plan as Plan
  reply.type(JSON_CONTENT_TYPE).send((outcome as Extract<Outcome, { kind: 'send' }>).body)
}

/** Closes the connection without a byte of answer; Fastify never completes such a request, so it is recorded here. */
function dropConnection (request: FastifyRequest, reply: FastifyReply): void {
  reply.hijack()
  request.device.recordDropped(request, reply.elapsedTime)
  // Destroying the response destroys its socket; inject() rejects with LIGHT_ECONNRESET likewise.
  reply.raw.destroy()
}

function cutWhatIsSent (reply: FastifyReply): void {
  const send = reply.send
  reply.send = function sendCutOff (payload?: unknown) {
    // An error goes to the error handler first, whose envelope comes back here as a string.
    if (typeof payload !== 'string' && !(payload instanceof Uint8Array)) return send.call(this, payload)
    return send.call(this, cutInHalf(payload))
  }
}
