import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyInstance, onRequestHookHandler } from 'fastify'
import { listResponses, retrieveResponses } from '../openapi/response-schemas.js'
import type { TokenPolicy } from '../wire/token-policy.js'
import type { DataStore } from '../data/data-store.js'
import { apiErrors, JSON_CONTENT_TYPE } from '../wire/errors.js'
import type { FaultControl } from '../control/faults/fault-control.js'
import { compileWithTypeBox } from '../wire/typebox-validator.js'
import { formatValueProblem } from '../util/value-errors.js'
import { CameraParamsSchema, CountingLineParamsSchema } from '../wire/schemas.js'

const LIST_PATH = '/cameras/:id/counting_lines'
const LINE_PATH = '/cameras/:id/counting_lines/:line_id'
const ALLOWED_METHODS = ['GET', 'HEAD'] as const

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
  app.addHook('onRequest', requireBearerToken(tokens, faults))
  app.addHook('onRequest', faults.hook)

  app.get(LIST_PATH, {
    schema: {
      operationId: 'listCountingLines',
      summary: 'List the counting lines of a camera',
      description: 'Every counting line of the camera, in fixture order; an empty list for a camera known without lines.',
      tags: ['Counting lines'],
      security,
      params: CameraParamsSchema,
      response: listResponses
    },
    validatorCompiler: checkParams
  }, function listCountingLines (request, reply) {
    const camera = store.camera(request.params.id)
    if (camera === undefined) throw apiErrors.cameraNotFound(request.params.id)
    sendPrepared(reply, camera.listBody)
  })

  app.get(LINE_PATH, {
    schema: {
      operationId: 'retrieveCountingLine',
      summary: 'Retrieve one counting line of a camera',
      description: 'One counting line, looked up by its id within the camera: line ids are unique per camera only.',
      tags: ['Counting lines'],
      security,
      params: CountingLineParamsSchema,
      response: retrieveResponses
    },
    validatorCompiler: checkParams
  }, function retrieveCountingLine (request, reply) {
    const { id, line_id: lineId } = request.params
    const camera = store.camera(id)
    if (camera === undefined) throw apiErrors.cameraNotFound(id)
    const body = camera.lineBody(lineId)
    if (body === undefined) throw apiErrors.countingLineNotFound(id, lineId)
    sendPrepared(reply, body)
  })

  refuseOtherMethods(app, LIST_PATH)
  refuseOtherMethods(app, LINE_PATH)

  // Unknown paths under the prefix are routes of this plugin, so the bearer check runs for them too.
  for (const url of ['/', '/*']) {
    app.all(url, { schema: { hide: true } }, function unknownApiPath () {
      throw apiErrors.routeNotFound()
    })
  }
}

// The typed reply expects the envelope object; a prepared body is that envelope already serialized.
function sendPrepared (reply: { type: (contentType: string) => { send: (body: never) => unknown } }, body: Buffer): void {
  reply.type(JSON_CONTENT_TYPE).send(body as never)
}

// A refusal waits for --latency like every answer here; an accepted request meets the fault hook next.
function requireBearerToken (tokens: TokenPolicy, faults: FaultControl): onRequestHookHandler {
  return function requireBearerToken (request, _reply, done) {
    const outcome = tokens.judge(request.headers.authorization)
    if (outcome === 'accepted') done()
    else faults.afterLatency(request.log, () => done(apiErrors.unauthorized(outcome)))
  }
}

// Fastify answers 404 to an unknown method on a known path; the contract wants 405 with Allow.
function refuseOtherMethods (app: FastifyInstance, url: string): void {
  const otherMethods = app.supportedMethods.filter(method => !(ALLOWED_METHODS as readonly string[]).includes(method))
  app.route({
    method: otherMethods,
    url,
    schema: { hide: true },
    // Refused in onRequest, before any request body is read or parsed.
    onRequest: function refuseMethod (request, _reply, done) {
      done(apiErrors.methodNotAllowed(request.method, ALLOWED_METHODS))
    },
    /* c8 ignore next: never runs, onRequest refuses every request of this route */
    handler: function unreachable () {}
  })
}
