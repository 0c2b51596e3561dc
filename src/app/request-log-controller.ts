import { LogController, type FastifyReply, type FastifyRequest } from 'fastify'
import type { RequestRecorder } from '../control/request-recorder.js'

/**
 * Fastify's log controller, called once for every request Fastify answers: it hands the request to the
 * recorder, for one flat log line (method, URL, status, time) and its journal entry, instead of Fastify's
 * incoming and completed lines with nested req and res objects, which cost twice as much.
 */
export class RecordEachRequest extends LogController {
  readonly #recorder: RequestRecorder

  constructor (recorder: RequestRecorder) {
    super()
    this.#recorder = recorder
  }

  override incomingRequest (): void {}

  override routeNotFound (): void {}

  // A client that goes away from a stream (a closed dashboard tab) is how such streams end, not news at info.
  override streamError (error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply): void {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') reply.log.debug('the client closed the stream')
    else super.streamError(error, request, reply)
  }

  override requestCompleted (error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    if (error) this.#recorder.failed(request, reply.log, reply.statusCode, reply.elapsedTime, error)
    else this.#recorder.answered(request, request.id, reply.statusCode, reply.elapsedTime)
  }
}
