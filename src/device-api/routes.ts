import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { responsesOf } from '../openapi/response-schemas.js'
import { apiErrors } from '../wire/errors.js'
import { JSON_CONTENT_TYPE } from '../contract/envelope.js'
import { requireBearer } from '../wire/area-guard.js'
import { refuseOtherMethods, refuseUnknownPaths } from '../wire/method-not-allowed.js'
import { compileWithTypeBox } from '../wire/typebox-validator.js'
import { formatValueProblem } from '../util/value-errors.js'
import { sees } from '../contract/bearer.js'
import { LIST_OPERATION, OPERATIONS, RETRIEVE_OPERATION, type OperationRow } from '../contract/paths.js'

const security = [{ bearerAuth: [] }]
// The router gives every parameter as a string, so these checks pass; the schemas are there for the document.
const checkParams = compileWithTypeBox(problems => new Error(problems.map(formatValueProblem).join('; ')))

/**
 * The device API under /nvr/v1: bearer check and rate limit first, then the two read operations. Each request
 * is judged and answered by the device it arrived on: its tokens, rate limit, faults, latency and data.
 */
export const countingLinesApi: FastifyPluginAsyncTypebox = async function countingLinesApi (app) {
  // onRequest runs before routing results are used, so an unauthenticated caller learns nothing.
  // A refusal waits for --latency too, as every answer of the device does.
  app.addHook('onRequest', requireBearer(request => request.device.area, (request, answer) => request.device.control.faultControl.afterLatency(request.log, answer)))
  // Injected faults and Prefer handling, once the token is accepted.
  app.addHook('onRequest', function applyFaults (request, reply, done) {
    request.device.control.faultControl.hook.call(this, request, reply, done)
  })

  // A camera outside the token's scope is a 403 whether it exists or not, so a scoped token learns nothing of it.
  function cameraFor (request: FastifyRequest, id: string) {
    const { tokens, store } = request.device
    if (!sees(tokens.admit(request.headers.authorization), id)) throw apiErrors.cameraForbidden(id)
    const camera = store.camera(id)
    if (camera === undefined) throw apiErrors.cameraNotFound(id)
    return camera
  }

  app.get(LIST_OPERATION.path, routeOptions(LIST_OPERATION), function listCountingLines (request, reply) {
    sendPrepared(reply, cameraFor(request, (request.params as { id: string }).id).listBody)
  })

  app.get(RETRIEVE_OPERATION.path, routeOptions(RETRIEVE_OPERATION), function retrieveCountingLine (request, reply) {
    const { id, line_id: lineId } = request.params as { id: string, line_id: string }
    const camera = cameraFor(request, id)
    const body = camera.lineBody(lineId)
    if (body === undefined) throw apiErrors.countingLineNotFound(id, lineId)
    sendPrepared(reply, body)
  })

  for (const row of OPERATIONS) refuseOtherMethods(app, row.path, row.methods)

  // Unknown paths under the prefix are routes of this plugin, so the bearer check runs for them too.
  refuseUnknownPaths(app)
}

// The route schema of an operation, from its row.
function routeOptions (row: OperationRow) {
  return {
    schema: { operationId: row.operationId, summary: row.summary, description: row.description, tags: ['Counting lines'], security, params: row.paramsSchema, response: responsesOf(row) },
    validatorCompiler: checkParams
  }
}

// The typed reply expects the envelope object; a prepared body is that envelope already serialized.
function sendPrepared (reply: { type: (contentType: string) => { send: (body: never) => unknown } }, body: Buffer): void {
  reply.type(JSON_CONTENT_TYPE).send(body as never)
}
