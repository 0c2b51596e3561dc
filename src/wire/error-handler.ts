import type { FastifyReply, FastifyRequest } from 'fastify'
import { errorAnswer } from '../contract/envelope.js'
import { apiErrors, toApiError, type ApiError } from './errors.js'

// Where every refusal leaves Fastify: the errors themselves are values, in errors.ts.

export function sendApiError (reply: FastifyReply, error: ApiError): FastifyReply {
  const { status, headers, body } = errorAnswer(error)
  reply.code(status)
  for (let index = 0; index < headers.length; index += 2) reply.header(headers[index] as string, headers[index + 1])
  // A HEAD answer is headers alone. Fastify drops the body on the HEAD routes it mirrors from a GET; on the
  // others (unknown paths, refusals before routing) it is dropped here, so app.inject() gets what a socket gets.
  if (reply.request.method === 'HEAD' && reply.request.routeOptions.method !== 'HEAD') {
    return reply.header('content-length', Buffer.byteLength(body)).send()
  }
  return reply.send(body)
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
