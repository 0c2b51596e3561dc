import { errorAnswer, JSON_CONTENT_TYPE } from '../contract/envelope.js'
import { API_PREFIX, hasMalformedEncoding, pathOf, readOperation } from '../contract/paths.js'
import type { DeviceCore, DeviceTokens } from '../device/device-core.js'
import { cutInHalf, decide, refusal } from '../pipeline/decide.js'
import type { Plan } from '../pipeline/plan.js'
import { isPreflight, preflightHeaders } from '../wire/cors.js'
import { apiErrors } from '../wire/errors.js'
import type { ServedTextStore } from './served-store.js'

/** What answers a request: a device without a port, made as the server's are. */
export type AnswerContext = DeviceCore<ServedTextStore, DeviceTokens>

/** An answer as the server would give it: status, headers as name, value…, and the body's bytes (none for HEAD). */
export interface Answer {
  status: number
  headers: string[]
  body: string | Uint8Array
}

/**
 * Answers a request below /nvr/v1 as the server does, by the same pipeline (pipeline/decide.ts): malformed
 * percent-encoding (after the bearer check) and a CORS preflight first, as the server's router and first hook do,
 * then the plan: its wait, then its bytes, its refusal, or a dropped connection (undefined).
 */
export async function answer (request: Request, context: AnswerContext): Promise<Answer | undefined> {
  const start = performance.now()
  const { pathname, search } = new URL(request.url)
  const url = pathname + search
  const headers: Record<string, string> = {}
  request.headers.forEach((value, name) => { headers[name] = value })
  const method = request.method
  const cors = context.corsHeadersFor(headers.origin)
  // The journal's generation when the request began to wait, if it waited: one reset meanwhile is not recorded.
  const waited: { journalGeneration?: number } = {}
  const record = (status: number, params: Record<string, string>, fault: string | null): void => {
    const recorded = { method, url, params, injectedFault: fault, ...waited }
    if (status === 0) context.recordDropped(recorded, performance.now() - start)
    else context.recordAnswered(recorded, 'msw', status, performance.now() - start)
  }

  if (hasMalformedEncoding(url)) {
    const admission = context.tokens.admit(headers.authorization)
    const plan = refusal(context, typeof admission === 'string' ? apiErrors.unauthorized(admission) : apiErrors.badUrl())
    return await carriedOut(plan, context, waited, method, cors, answered => record(answered, {}, null))
  }
  const match = readOperation(url)
  const params = match?.params ?? wildcardParams(url)
  if (isPreflight({ method, headers })) {
    record(204, params, null)
    return { status: 204, headers: [...cors, ...preflightHeaders(headers['access-control-request-headers']), 'content-length', '0'], body: '' }
  }
  const plan = decide(context, { method, authorization: headers.authorization, prefer: undefined, operation: match?.row, params })
  return await carriedOut(plan, context, waited, method, cors, status => record(status, params, plan.fault))
}

/** The plan carried out: after its wait, the answer it makes (recorded), or undefined for a dropped connection. */
async function carriedOut (plan: Plan, device: AnswerContext, waited: { journalGeneration?: number }, method: string, cors: readonly string[], record: (status: number) => void): Promise<Answer | undefined> {
  if (plan.waitMs > 0) await new Promise<void>(resolve => { device.wait(waited, plan.waitMs, resolve) })
  const { outcome } = plan
  if (outcome.kind === 'drop') {
    record(0)
    return undefined
  }
  const answered = outcome.kind === 'refuse' ? errorAnswer(outcome.error, cors) : { status: 200, headers: [...cors, 'content-type', JSON_CONTENT_TYPE], body: (outcome as { body: string }).body }
  answered.headers.push(...plan.headers)
  const body = plan.cut ? cutInHalf(answered.body) : answered.body
  answered.headers.push('content-length', String(typeof body === 'string' ? new TextEncoder().encode(body).length : body.length))
  record(answered.status)
  return { ...answered, body: method === 'HEAD' ? '' : body }
}

// Unknown paths below the prefix are the router's wildcard route, whose parameter is the rest of the path.
function wildcardParams (url: string): Record<string, string> {
  const path = pathOf(url)
  return path.length > API_PREFIX.length ? { '*': decodeURIComponent(path.slice(API_PREFIX.length + 1)) } : {}
}
