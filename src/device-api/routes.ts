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
import { sees } from '../contract/bearer.js'
import type { RateLimiter } from '../contract/rate-limit.js'
import { LIST_OPERATION, OPERATIONS, RETRIEVE_OPERATION, type OperationRow } from '../contract/paths.js'

export interface CountingLinesApiOptions {
  store: DataStore
  tokens: TokenPolicy
  /** Injected faults and Prefer handling, applied once the token is accepted; --latency, to every answer. */
  faults: FaultControl
  /** The rate limit per token, counted with the bearer check. */
  limiter: RateLimiter
}

const security = [{ bearerAuth: [] }]
// The router gives every parameter as a string, so these checks pass; the schemas are there for the document.
const checkParams = compileWithTypeBox(problems => new Error(problems.map(formatValueProblem).join('; ')))

/** The device API under /nvr/v1: bearer check and rate limit first, then the two read operations. */
export const countingLinesApi: FastifyPluginAsyncTypebox<CountingLinesApiOptions> = async function countingLinesApi (app, { store, tokens, faults, limiter }) {
  // onRequest runs before routing results are used, so an unauthenticated caller learns nothing.
  // A refusal waits for --latency too, as every answer of the device does.
  app.addHook('onRequest', requireBearer(deviceArea(tokens, limiter), (log, answer) => faults.afterLatency(log, answer)))
  app.addHook('onRequest', faults.hook)

  // A camera outside the token's scope is a 403 whether it exists or not, so a scoped token learns nothing of it.
  function cameraFor (request: { headers: { authorization?: string } }, id: string) {
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
