import type { FastifyReply, FastifyRequest } from 'fastify'
import { errorEnvelope, JSON_CONTENT_TYPE } from '../contract/envelope.js'
import { apiErrors, toApiError, type ApiError } from './errors.js'

// Where every refusal leaves Fastify: the errors themselves are values, in errors.ts.

export function sendApiError (reply: FastifyReply, error: ApiError): FastifyReply {
  return reply
    .code(error.statusCode)
    .headers(error.headers)
    .type(JSON_CONTENT_TYPE)
    .send(errorEnvelope(error.statusCode, error.message))
}

/** The one error handler: every failure leaves in the envelope; a 5xx keeps its detail in the log. */
export function handleError (error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const apiError = toApiError(error)
  // An ApiError of 5xx is a fault injected on purpose, not a failure to log.
  if (apiError.statusCode >= 500 && apiError !== error) request.log.error({ err: error }, 'request failed')
  return sendApiError(reply, apiError)
}

export function handleNotFound (_request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendApiError(reply, apiErrors.routeNotFound())
}
