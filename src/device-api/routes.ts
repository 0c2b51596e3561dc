import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { responsesOf } from '../openapi/response-schemas.js'
import type { TokenPolicy } from '../wire/token-policy.js'
import type { DataStore } from '../data/data-store.js'
import { apiErrors } from '../wire/errors.js'
import { JSON_CONTENT_TYPE } from '../contract/envelope.js'
import type { FaultControl } from '../control/faults/fault-control.js'
import { deviceArea, requireBearer } from '../wire/area-guard.js'
import { refuseOtherMethods, refuseUnknownPaths } from '../wire/method-not-allowed.js'
import { compileWithTypeBox } from '../wire/typebox-validator.js'
import { formatValueProblem } from '../util/value-errors.js'
import { LIST_OPERATION, OPERATIONS, RETRIEVE_OPERATION, type OperationRow } from '../contract/paths.js'

export interface CountingLinesApiOptions {
  store: DataStore
  tokens: TokenPolicy
  /** Injected faults and Prefer handling, applied once the token is accepted; --latency, to every answer. */
  faults: FaultControl
}

const security = [{ bearerAuth: [] }]
// The router gives every parameter as a string, so these checks pass; the schemas are there for the document.
const checkParams = compileWithTypeBox(problems => new Error(problems.map(formatValueProblem).join('; ')))

/** The device API under /nvr/v1: bearer check first, then the two read operations. */
export const countingLinesApi: FastifyPluginAsyncTypebox<CountingLinesApiOptions> = async function countingLinesApi (app, { store, tokens, faults }) {
  // onRequest runs before routing results are used, so an unauthenticated caller learns nothing.
  // A refusal waits for --latency too, as every answer of the device does.
  app.addHook('onRequest', requireBearer(deviceArea(tokens), (log, answer) => faults.afterLatency(log, answer)))
  app.addHook('onRequest', faults.hook)

  app.get(LIST_OPERATION.path, routeOptions(LIST_OPERATION), function listCountingLines (request, reply) {
    const camera = store.camera((request.params as { id: string }).id)
    if (camera === undefined) throw apiErrors.cameraNotFound((request.params as { id: string }).id)
    sendPrepared(reply, camera.listBody)
  })

  app.get(RETRIEVE_OPERATION.path, routeOptions(RETRIEVE_OPERATION), function retrieveCountingLine (request, reply) {
    const { id, line_id: lineId } = request.params as { id: string, line_id: string }
    const camera = store.camera(id)
    if (camera === undefined) throw apiErrors.cameraNotFound(id)
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
