import { sees, type Admission, type Admitted } from '../contract/bearer.js'
import { errorEnvelope, JSON_CONTENT_TYPE } from '../contract/envelope.js'
import { API_PREFIX, hasMalformedEncoding, matchOperation, pathOf, type OperationMatch } from '../contract/paths.js'
import type { MockControl } from '../control/mock-control.js'
import { isPreflight, preflightHeaders, type CorsPolicy } from '../wire/cors.js'
import { apiErrors, type ApiError } from '../wire/errors.js'
import type { ServedTextStore } from './served-store.js'

/** What answers a request: the same policies the server is built from. */
export interface AnswerContext {
  tokens: { admit: (authorization: string | undefined) => Admission }
  cors: CorsPolicy
  control: MockControl<ServedTextStore>
}

/** An answer as the server would give it: status, headers as name, value…, and the body's bytes (none for HEAD). */
export interface Answer {
  status: number
  headers: string[]
  body: string | Uint8Array
}

/** The request as the fault hook and the journal read it (the shape of Fastify's request they read). */
interface RoutedRequest {
  method: string
  url: string
  headers: Record<string, string>
  params: Record<string, string>
  routeOptions: { url: string }
  injectedFault: string | null
  log: { debug: () => void }
}

/** The outcome of the fault hook: go on (perhaps with a cut-off body), refuse with an error, or drop. */
interface FaultOutcome {
  error?: ApiError
  dropped: boolean
  cutOff?: (body: string) => Uint8Array
}

/**
 * Answers a request below /nvr/v1 in the order the server decides: malformed percent-encoding (after the
 * bearer check), a CORS preflight, the bearer check and the rate limit, injected faults and latency, then the
 * operation's row (a camera outside the token's scope before one that does not exist).
 * Returns undefined when a fault drops the connection.
 */
export async function answer (request: Request, context: AnswerContext): Promise<Answer | undefined> {
  const start = performance.now()
  const { pathname, search } = new URL(request.url)
  const url = pathname + search
  const headers: Record<string, string> = {}
  request.headers.forEach((value, name) => { headers[name] = value })
  const method = request.method
  const cors = context.cors.headersFor(headers.origin)
  const finish = (answered: Answer, routed: Pick<RoutedRequest, 'params' | 'injectedFault'> = { params: {}, injectedFault: null }): Answer => {
    context.control.recorder.answered({ method, url, ...routed }, 'msw', answered.status, performance.now() - start)
    return method === 'HEAD' ? { ...answered, body: '' } : answered
  }

  const admission = context.tokens.admit(headers.authorization)
  const refusal = typeof admission === 'string' ? apiErrors.unauthorized(admission) : undefined
  if (hasMalformedEncoding(url)) return finish(errorAnswer(cors, refusal ?? apiErrors.badUrl()))
  const match = matchOperation(url, decodeURIComponent)
  const routed: RoutedRequest = {
    method,
    url,
    headers,
    params: match?.params ?? wildcardParams(url),
    routeOptions: { url: match === undefined ? `${API_PREFIX}/*` : `${API_PREFIX}${match.row.path}` },
    injectedFault: null,
    log: { debug () {} }
  }
  if (isPreflight({ method, headers })) {
    return finish({ status: 204, headers: [...cors, ...preflightHeaders(headers['access-control-request-headers']), 'content-length', '0'], body: '' }, routed)
  }
  if (refusal !== undefined) return finish(errorAnswer(cors, refusal), routed)
  const retryAfter = context.control.rateLimiter.active ? context.control.rateLimiter.take((admission as Admitted).token) : undefined
  if (retryAfter !== undefined) return finish(errorAnswer(cors, apiErrors.rateLimited(retryAfter)), routed)

  const fault = await applyFaults(context, routed, start)
  if (fault.dropped) return undefined
  const answered = fault.error === undefined ? operationAnswer(context, admission, method, match, cors) : errorAnswer(cors, fault.error)
  if (fault.cutOff !== undefined) answered.body = fault.cutOff(answered.body as string)
  setContentLength(answered)
  return finish(answered, routed)
}

function operationAnswer ({ control }: AnswerContext, admission: Admission, method: string, match: OperationMatch | undefined, cors: readonly string[]): Answer {
  if (match === undefined) return errorAnswer(cors, apiErrors.routeNotFound())
  const { row, params } = match
  if (!row.methods.includes(method)) return errorAnswer(cors, apiErrors.methodNotAllowed(method, row.methods))
  if (!sees(admission, params.id as string)) return errorAnswer(cors, apiErrors.cameraForbidden(params.id as string))
  const camera = control.store.current.cameras.get(params.id as string)
  if (camera === undefined) return errorAnswer(cors, apiErrors.cameraNotFound(params.id as string))
  const body = params.line_id === undefined ? camera.listBody : camera.lineBodies.get(params.line_id)
  if (body === undefined) return errorAnswer(cors, apiErrors.countingLineNotFound(params.id as string, params.line_id as string))
  return withLength({ status: 200, headers: [...cors, 'content-type', JSON_CONTENT_TYPE], body })
}

function errorAnswer (cors: readonly string[], error: ApiError): Answer {
  const headers = [...cors, ...Object.entries(error.headers).flat(), 'content-type', JSON_CONTENT_TYPE]
  return withLength({ status: error.statusCode, headers, body: errorEnvelope(error) })
}

function withLength (answered: Answer): Answer {
  setContentLength(answered)
  return answered
}

function setContentLength (answered: Answer): void {
  const length = typeof answered.body === 'string' ? new TextEncoder().encode(answered.body).length : answered.body.length
  const at = answered.headers.indexOf('content-length')
  if (at === -1) answered.headers.push('content-length', String(length))
  else answered.headers[at + 1] = String(length)
}

// Unknown paths below the prefix are the router's wildcard route, whose parameter is the rest of the path.
function wildcardParams (url: string): Record<string, string> {
  const path = pathOf(url)
  return path.length > API_PREFIX.length ? { '*': decodeURIComponent(path.slice(API_PREFIX.length + 1)) } : {}
}

/**
 * Runs the server's own fault hook on the request: the same faults, scoping, latency and random delays.
 * Its reply is a stand-in that notes what the hook does: a dropped connection, or a send that cuts the body. (It sets
 * no header: only Prefer handling does, which the handlers leave off.)
 */
async function applyFaults ({ control }: AnswerContext, request: RoutedRequest, start: number): Promise<FaultOutcome> {
  let dropped = false
  let sent: Uint8Array | undefined
  const send = function send (payload: Uint8Array) {
    sent = payload
  }
  const reply = {
    send,
    hijack () { dropped = true },
    raw: { destroy () {} },
    get elapsedTime () { return performance.now() - start }
  }
  const error = await new Promise<ApiError | undefined>(resolve => {
    control.faultControl.hook.call(undefined as never, request as never, reply as never, (error?: Error) => resolve(error as ApiError | undefined))
  })
  if (reply.send === send) return { error, dropped }
  const cutOff = reply.send as unknown as (payload: string) => void
  return {
    error,
    dropped,
    cutOff: body => {
      cutOff.call(reply, body)
      return sent as Uint8Array
    }
  }
}
