import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { apiErrors } from '../../wire/errors.js'
import type { FaultSpec } from './fault-spec.js'
import type { RequestJournal } from '../journal.js'

/** An answer other than the usual one: a status in the envelope, a dropped connection, or a cut-off body. */
export type Answer = Pick<FaultSpec, 'status' | 'message' | 'retryAfter' | 'drop' | 'malformed'>

/** Ends the fault hook with the answer; with none, the request goes on to be answered as usual. */
export function carryOut (answer: Answer | undefined, request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction, journal: RequestJournal | undefined): void {
  if (answer?.status !== undefined) {
    done(apiErrors.injected(answer.status, answer.message, answer.retryAfter))
    return
  }
  if (answer?.drop === true) dropConnection(request, reply, journal)
  else if (answer?.malformed === true) malformBody(reply)
  done()
}

/**
 * Closes the connection without a byte of answer, as a device that crashed or lost power would.
 * Fastify never completes such a request, so it is recorded here.
 */
function dropConnection (request: FastifyRequest, reply: FastifyReply, journal: RequestJournal | undefined): void {
  reply.hijack()
  journal?.record(request, 0, reply.elapsedTime)
  // Destroying the response destroys its socket; inject() rejects with LIGHT_ECONNRESET likewise.
  reply.raw.destroy()
}

/**
 * Lets the request be answered as usual, with its status and headers, but cuts the body in half:
 * a client's JSON parser then fails as it would on a connection cut mid-answer.
 */
function malformBody (reply: FastifyReply): void {
  const send = reply.send
  reply.send = function sendCutOff (payload?: unknown) {
    // An error goes to the error handler first, whose envelope comes back here as a string.
    if (typeof payload !== 'string' && !(payload instanceof Uint8Array)) return send.call(this, payload)
    const bytes = typeof payload === 'string' ? new TextEncoder().encode(payload) : payload
    return send.call(this, bytes.subarray(0, Math.floor(bytes.length / 2)))
  }
}
