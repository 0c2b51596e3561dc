import { ADMIN_REALM, bearerChallenge, type AuthOutcome } from '../contract/bearer.js'
import { ERROR_CODES, type ErrorCode } from '../errors/catalogue.js'
import { API_PREFIX, READ_METHODS_HEADER } from '../contract/paths.js'
import { STATUS_TEXT } from '../contract/status-text.js'
import { ApiError, ProblemsError } from '../errors/errors.js'
import { formatValueProblem, type ValueProblem } from '../util/value-errors.js'

export { ApiError }

const UNAUTHORIZED_MESSAGES = {
  no_credentials: 'This request needs an Authorization header with a bearer token.',
  invalid_request: 'The Authorization header must be "Bearer" followed by one token.',
  invalid_token: 'The bearer token was not accepted.'
} as const

const UNAUTHORIZED_CODES = {
  no_credentials: ERROR_CODES.noCredentials,
  invalid_request: ERROR_CODES.malformedCredentials,
  invalid_token: ERROR_CODES.tokenRefused
} as const

/** Every error the API answers with, by name. */
export const apiErrors = {
  unauthorized: (outcome: Exclude<AuthOutcome, 'accepted'>) =>
    new ApiError(401, UNAUTHORIZED_CODES[outcome], UNAUTHORIZED_MESSAGES[outcome], { 'www-authenticate': bearerChallenge(outcome) }),
  cameraForbidden: (cameraId: string) =>
    new ApiError(403, ERROR_CODES.forbidden, `This token has no access to camera ${quote(cameraId)}.`),
  cameraNotFound: (cameraId: string) =>
    new ApiError(404, ERROR_CODES.cameraNotFound, `No camera has the id ${quote(cameraId)}.`),
  countingLineNotFound: (cameraId: string, lineId: string) =>
    new ApiError(404, ERROR_CODES.countingLineNotFound, `Camera ${quote(cameraId)} has no counting line with the id ${quote(lineId)}.`),
  routeNotFound: () =>
    new ApiError(404, ERROR_CODES.pathNotFound, 'Nothing is served at this path.'),
  methodNotAllowed: (method: string, allowed: readonly string[]) =>
    new ApiError(405, ERROR_CODES.methodNotAllowed, `The ${method} method is not allowed here; use ${allowed.join(' or ')}.`, { allow: allowed.join(', ') }),
  rateLimited: (retryAfterSeconds: number) =>
    new ApiError(429, ERROR_CODES.rateLimited, `Too many requests for this token; retry after ${retryAfterSeconds} s, and back off exponentially.`, { 'retry-after': String(retryAfterSeconds) }),
  badUrl: () =>
    new ApiError(400, ERROR_CODES.badEncoding, 'The path holds malformed percent-encoding.'),
  missingHost: () =>
    new ApiError(400, ERROR_CODES.malformedRequest, 'An HTTP/1.1 request needs a Host header.'),
  internal: () =>
    new ApiError(500, ERROR_CODES.internal, 'The mock could not answer this request.'),
  injected: (status: number, message?: string, retryAfter?: number, code?: string) =>
    new ApiError(status, code ?? ERROR_CODES.injected, message ?? `Injected fault: ${status} ${STATUS_TEXT[status] ?? 'Error'}.`, injectedHeaders(status, retryAfter)),
  invalidPrefer: (problem: string) =>
    new ApiError(400, ERROR_CODES.invalidPrefer, `The request was refused: ${problem}.`),
  adminUnauthorized: (outcome: Exclude<AuthOutcome, 'accepted'>) =>
    new ApiError(401, UNAUTHORIZED_CODES[outcome], ADMIN_UNAUTHORIZED_MESSAGES[outcome], { 'www-authenticate': bearerChallenge(outcome, ADMIN_REALM) }),
  /** A body with mistakes: each JSON path and what is wrong there, in the sentence and as `problems`. */
  invalidBody: (problems: readonly ValueProblem[]) =>
    new ApiError(400, ERROR_CODES.invalidBody, sentence(`The request body is invalid: ${problems.map(formatValueProblem).join('; ')}`), {}, problems.map(({ path, message }) => ({ path, message }))),
  /** A body JSON cannot read: the sentence says where, and so does its one problem, as a broken file's would. */
  invalidJson: (problem: ValueProblem) =>
    new ApiError(400, ERROR_CODES.invalidBody, `The request body ${problem.message}.`, {}, [{ path: problem.path, message: problem.message }]),
  /** A query parameter with a mistake: the sentence and `problems` name it (its path is its name). */
  invalidQuery: (name: string, message: string) =>
    new ApiError(400, ERROR_CODES.invalidQuery, `The query parameter ${name} ${message}.`, {}, [{ path: name, message }]),
  faultNotFound: (id: string) =>
    new ApiError(404, ERROR_CODES.faultNotFound, `No fault has the id ${quote(id)}.`),
  deviceNotFound: (name: string) =>
    new ApiError(404, ERROR_CODES.deviceNotFound, `No device of the fleet is named ${quote(name)}.`),
  tooManyStreams: (max: number) =>
    new ApiError(503, ERROR_CODES.tooManyStreams, `${max} streams of the journal are open already; close one first.`, { 'retry-after': '5' }),
  deviceStarting: (retryAfterSeconds: number) =>
    new ApiError(503, ERROR_CODES.deviceStarting, `The device is starting; retry after ${retryAfterSeconds} s.`, { 'retry-after': String(retryAfterSeconds) }),
  healthLocksOut: (state: string) =>
    new ApiError(409, ERROR_CODES.healthLocksOut, `The device cannot go ${state} here: the clock is manual and this admin API shares the device's port, so nothing could move the clock while the port is closed. Run a fleet of one (--devices 1), whose control address stays up, or use the library's clock.advance.`),
  clockNotManual: () =>
    new ApiError(409, ERROR_CODES.clockNotManual, 'The device\'s clock is the real one, which moves by itself: start mock-nvr with --clock manual (the option clock: \'manual\') to move it by hand.'),
  dataFromTarget: (target: string) =>
    new ApiError(409, ERROR_CODES.dataFromTarget, `Data cannot be replaced while proxying ${target}: the target's own data answers ${API_PREFIX}, behind its own token check.`),
  targetNoAnswer: (timedOut: boolean, reason: string) =>
    new ApiError(timedOut ? 504 : 502, timedOut ? ERROR_CODES.targetTimeout : ERROR_CODES.targetUnreachable, `The target did not answer: ${reason}.`),
  /** What Node's HTTP parser refuses before routing: headers too large, a request that never finished, bytes that are not HTTP. */
  clientError: (status: number) =>
    new ApiError(status, PARSER_CODES[status] ?? ERROR_CODES.malformedRequest, `The request was refused: ${STATUS_TEXT[status] ?? 'client error'}.`)
}

const ADMIN_UNAUTHORIZED_MESSAGES = {
  no_credentials: 'The admin API needs an Authorization header with the admin token as a bearer token.',
  invalid_request: UNAUTHORIZED_MESSAGES.invalid_request,
  invalid_token: 'The bearer token is not the admin token.'
} as const

const PARSER_CODES: Record<number, ErrorCode> = {
  408: ERROR_CODES.requestTimeout,
  431: ERROR_CODES.headersTooLarge
}

// An injected error carries what a client needs to react as it would to the real one.
function injectedHeaders (status: number, retryAfter: number | undefined): Record<string, string> {
  if (status === 401) return { 'www-authenticate': bearerChallenge('invalid_token') }
  if (status === 405) return { allow: READ_METHODS_HEADER }
  if (retryAfter !== undefined || status === 429 || status === 503) return { 'retry-after': String(retryAfter ?? 1) }
  return {}
}

const MAX_QUOTED_LENGTH = 80

// A full stop, unless the last problem asks a question (did you mean …?).
function sentence (text: string): string {
  return text.endsWith('?') ? text : `${text}.`
}

// Ids come from the caller and may be huge; a message quotes only their start.
function quote (id: string): string {
  return JSON.stringify(id.length > MAX_QUOTED_LENGTH ? `${id.slice(0, MAX_QUOTED_LENGTH)}…` : id)
}

// Fastify's refusals of a request body (admin calls have one), in the words a caller can act on.
const BODY_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty, but its Content-Type says JSON.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'The request body must be JSON, sent with Content-Type: application/json.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.'
}

/**
 * Turns anything thrown into the ApiError to answer with: a checked value's problems are a 400 listing them (an
 * admin call's body); Fastify's own 4xx keep their status.
 */
export function toApiError (error: unknown): ApiError {
  if (error instanceof ApiError) return error
  if (error instanceof ProblemsError) return apiErrors.invalidBody(error.problems)
  const statusCode = (error as { statusCode?: unknown } | null)?.statusCode
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    const code = String((error as { code?: unknown }).code)
    if (code === 'FST_ERR_BAD_URL') return apiErrors.badUrl()
    const bodyError = BODY_ERRORS[code]
    if (bodyError !== undefined) return new ApiError(statusCode, ERROR_CODES.invalidBody, bodyError)
    return apiErrors.clientError(statusCode)
  }
  return apiErrors.internal()
}
