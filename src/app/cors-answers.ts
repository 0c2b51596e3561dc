import type { FastifyReply, FastifyRequest } from 'fastify'
import { isPreflight, preflightHeaders, type CorsPolicy } from '../wire/cors.js'

/**
 * Sets the CORS headers of a request's answer and answers a preflight (returning true), from the first
 * onRequest hook. Not @fastify/cors: that plugin builds its options anew on every request, and the
 * headers here are fixed strings, so a request costs a few assignments.
 */
export function answerCors (cors: CorsPolicy, request: FastifyRequest, reply: FastifyReply): boolean {
  applyCors(cors, request, reply)
  if (!isPreflight(request)) return false
  const headers = preflightHeaders(request.headers['access-control-request-headers'])
  for (let index = 0; index < headers.length; index += 2) reply.header(headers[index] as string, headers[index + 1])
  // Some browsers wait for a body on a 204 unless told its length.
  reply.code(204).header('content-length', '0').send()
  return true
}

/** The headers of every answer; also used for answers given before any hook runs (a malformed URL). */
export function applyCors (cors: CorsPolicy, request: FastifyRequest, reply: FastifyReply): void {
  const headers = cors.headersFor(request.headers.origin)
  for (let index = 0; index < headers.length; index += 2) reply.header(headers[index] as string, headers[index + 1])
}
