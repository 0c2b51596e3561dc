import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { responsesOf } from '../openapi/response-schemas.js'
import { refuseUnknownPaths } from '../wire/method-not-allowed.js'
import { compileWithTypeBox } from '../wire/typebox-validator.js'
import { formatValueProblem } from '../util/value-errors.js'
import { OPERATIONS, type OperationRow } from '../contract/paths.js'
import { decide } from '../pipeline/decide.js'
import { apiRequestOf, carryOut, sendPlanned } from './carry-out.js'

const security = [{ bearerAuth: [] }]
// The router gives every parameter as a string, so these checks pass; the schemas are there for the document.
const checkParams = compileWithTypeBox(problems => new Error(problems.map(formatValueProblem).join('; ')))

/**
 * The device API under /nvr/v1: every request, of every route here, is decided by the pipeline (pipeline/decide.ts)
 * in one onRequest hook, before any body is read, from the state of the device it arrived on; its route sends the
 * bytes the plan chose. The routes are there for the router and the document.
 */
export const countingLinesApi: FastifyPluginAsyncTypebox = async function countingLinesApi (app) {
  app.decorateRequest('plan', null)
  app.addHook('onRequest', function decideAnswer (request, reply, done) {
    carryOut(decide(request.device, apiRequestOf(request)), request, reply, done)
  })
  for (const row of OPERATIONS) {
    // GET only: Fastify mirrors it as the HEAD route, which sends a HEAD answer's headers without its body.
    app.get(row.path, routeOptions(row), sendPlanned)
    // Fastify answers 404 to an unknown method on a known path; the contract wants 405, which the plan gives.
    app.route({ method: app.supportedMethods.filter(method => !row.methods.includes(method)), url: row.path, schema: { hide: true }, handler: sendPlanned })
  }
  // Unknown paths under the prefix are routes of this plugin, so the plan (its bearer check first) covers them too.
  refuseUnknownPaths(app)
}

// The route schema of an operation, from its row.
function routeOptions (row: OperationRow) {
  return {
    schema: { operationId: row.operationId, summary: row.summary, description: row.description, tags: ['Counting lines'], security, params: row.paramsSchema, response: responsesOf(row) },
    validatorCompiler: checkParams
  }
}
