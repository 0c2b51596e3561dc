import { ADMIN_REALM, bearerChallenge, type AuthOutcome } from '../contract/bearer.js'
import { READ_METHODS_HEADER } from '../contract/paths.js'
import { STATUS_TEXT } from '../contract/status-text.js'

/** A refusal the API answers with: a status, one human sentence, and any headers it needs. */
export class ApiError extends Error {
  readonly statusCode: number
  readonly headers: Readonly<Record<string, string>>

  constructor (statusCode: number, message: string, headers: Record<string, string> = {}) {
    super(message)
    this.name = 'ApiError'
    this.statusCode = statusCode
    this.headers = headers
  }
}

const UNAUTHORIZED_MESSAGES = {
  no_credentials: 'This request needs an Authorization header with a bearer token.',
  invalid_request: 'The Authorization header must be "Bearer" followed by one token.',
  invalid_token: 'The bearer token was not accepted.'
} as const

/** Every error the API answers with, by name. */
export const apiErrors = {
  unauthorized: (outcome: Exclude<AuthOutcome, 'accepted'>) =>
    new ApiError(401, UNAUTHORIZED_MESSAGES[outcome], { 'www-authenticate': bearerChallenge(outcome) }),
  cameraNotFound: (cameraId: string) =>
    new ApiError(404, `No camera has the id ${quote(cameraId)}.`),
  countingLineNotFound: (cameraId: string, lineId: string) =>
    new ApiError(404, `Camera ${quote(cameraId)} has no counting line with the id ${quote(lineId)}.`),
  routeNotFound: () =>
    new ApiError(404, 'Nothing is served at this path.'),
  methodNotAllowed: (method: string, allowed: readonly string[]) =>
    new ApiError(405, `The ${method} method is not allowed here; use ${allowed.join(' or ')}.`, { allow: allowed.join(', ') }),
  badUrl: () =>
    new ApiError(400, 'The path holds malformed percent-encoding.'),
  missingHost: () =>
    new ApiError(400, 'An HTTP/1.1 request needs a Host header.'),
  internal: () =>
    new ApiError(500, 'The mock could not answer this request.'),
  injected: (status: number, message?: string, retryAfter?: number) =>
    new ApiError(status, message ?? `Injected fault: ${status} ${STATUS_TEXT[status] ?? 'Error'}.`, injectedHeaders(status, retryAfter)),
  invalidPrefer: (problem: string) =>
    new ApiError(400, `The request was refused: ${problem}.`),
  adminUnauthorized: (outcome: Exclude<AuthOutcome, 'accepted'>) =>
    new ApiError(401, ADMIN_UNAUTHORIZED_MESSAGES[outcome], { 'www-authenticate': bearerChallenge(outcome, ADMIN_REALM) }),
  invalidBody: (problems: string) =>
    new ApiError(400, `The request body is invalid: ${problems}.`),
  faultNotFound: (id: string) =>
    new ApiError(404, `No fault has the id ${quote(id)}.`),
  tooManyStreams: (max: number) =>
    new ApiError(503, `${max} streams of the journal are open already; close one first.`, { 'retry-after': '5' })
}

const ADMIN_UNAUTHORIZED_MESSAGES = {
  no_credentials: 'The admin API needs an Authorization header with the admin token as a bearer token.',
  invalid_request: UNAUTHORIZED_MESSAGES.invalid_request,
  invalid_token: 'The bearer token is not the admin token.'
} as const

// An injected error carries what a client needs to react as it would to the real one.
function injectedHeaders (status: number, retryAfter: number | undefined): Record<string, string> {
  if (status === 401) return { 'www-authenticate': bearerChallenge('invalid_token') }
  if (status === 405) return { allow: READ_METHODS_HEADER }
  if (retryAfter !== undefined || status === 429 || status === 503) return { 'retry-after': String(retryAfter ?? 1) }
  return {}
}

const MAX_QUOTED_LENGTH = 80

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

/** Turns anything thrown into the ApiError to answer with; Fastify's own 4xx keep their status. */
export function toApiError (error: unknown): ApiError {
  if (error instanceof ApiError) return error
  const statusCode = (error as { statusCode?: unknown } | null)?.statusCode
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    const code = String((error as { code?: unknown }).code)
    if (code === 'FST_ERR_BAD_URL') return apiErrors.badUrl()
    const bodyError = BODY_ERRORS[code]
    if (bodyError !== undefined) return new ApiError(statusCode, bodyError)
    return new ApiError(statusCode, `The request was refused: ${STATUS_TEXT[statusCode] ?? 'client error'}.`)
  }
  return apiErrors.internal()
}
