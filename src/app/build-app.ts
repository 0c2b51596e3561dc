import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import { adminApi } from '../admin-api/routes.js'
import { ADMIN_PREFIX } from '../contract/paths.js'
import { registerDashboard } from '../admin-api/dashboard-page.js'
import { healthErrorResponses } from '../openapi/response-schemas.js'
import { adminArea, deviceArea, guardAreas } from '../wire/area-guard.js'
import { isUnder } from '../contract/paths.js'
import { registerApiPage } from '../openapi/api-page.js'
import { TokenPolicy } from '../wire/token-policy.js'
import { answerClientError } from './client-errors.js'
import { closeConnectionsWhenDone } from './closing.js'
import { MockControl } from '../control/mock-control.js'
import type { CorsPolicy } from '../wire/cors.js'
import type { DataStore } from '../data/data-store.js'
import { toApiError } from '../wire/errors.js'
import { handleError, handleNotFound, sendApiError } from '../wire/error-handler.js'
import { FastPath } from './fast-path.js'
import { answerHttpEdgeCases, refuseAtTheEdge } from './http-edges.js'
import { serverWithFastPath } from './http-server.js'
import { BODY_LIMIT_BYTES, capConnections, DEFAULT_LIMITS, nodeServerOptions, type ServerLimits } from '../config/limits.js'
import { compileOnFirstUse } from './lazy-serializer.js'
import { createLogger, requestLineWriter } from '../logging/logger.js'
import { RecordEachRequest } from './request-log-controller.js'
import { OptionsError } from '../config/options.js'
import { registerOpenApi } from '../openapi/swagger.js'
import { countingLinesApi } from '../device-api/routes.js'
import { API_PREFIX } from '../contract/paths.js'
import { CountingLineEnvelopeSchema, CountingLineListEnvelopeSchema, CountingLineSchema, ErrorEnvelopeSchema } from '../wire/schemas.js'
import type { TlsCredentials } from '../config/tls.js'
import { deviceProxyApi } from '../device-proxy/proxy-routes.js'
import type { DeviceProxy } from '../device-proxy/device-proxy.js'

export interface AppDependencies {
  store: DataStore
  tokens: TokenPolicy
  cors: CorsPolicy
  /** Bytes of request line and headers together; also bounds how long an id in the path may be. */
  maxHeaderSize: number
  /** Time-outs and the connection cap; each one missing takes its default. */
  limits?: Partial<ServerLimits>
  logger?: FastifyBaseLogger
  /** Serve HTTPS with this certificate and key instead of plain HTTP. */
  https?: TlsCredentials
  /** Faults, latency, the rate limit and the request journal of this app; a fresh one on the store and tokens when absent. */
  control?: MockControl
  /** Turns the admin API on under /__admin/, for callers with this bearer token; `tokens` must refuse it. */
  adminToken?: string
  /** Forward /nvr/v1 to a real device instead of serving the store; the device decides who is let in. */
  proxy?: DeviceProxy
}

/** The Fastify instance with every plugin in the order that matters. It never listens. */
export async function buildApp ({ store, tokens, cors: corsPolicy, maxHeaderSize, limits: someLimits, logger, https, control = new MockControl({ store, access: tokens }), adminToken, proxy }: AppDependencies): Promise<FastifyInstance> {
  if (adminToken !== undefined && tokens.judge(`Bearer ${adminToken}`) === 'accepted') {
    throw new OptionsError('option adminToken must differ from every token: the admin token must never open the device API')
  }
  const adminTokens = adminToken === undefined ? undefined : new TokenPolicy([adminToken])
  const guardArea = guardAreas(adminTokens === undefined ? [deviceArea(tokens)] : [deviceArea(tokens), adminArea(adminTokens)])
  const limits = { ...DEFAULT_LIMITS, ...someLimits }
  const serverOptions = nodeServerOptions(maxHeaderSize, limits)
  const nextRequestId = countRequests()
  const fastPath = new FastPath({ store, tokens, cors: corsPolicy, faults: control.faultControl, limiter: control.rateLimiter, recorder: control.recorder, nextRequestId })
  // Without a logger Fastify never calls the log controller, which records the journal: a silent one then.
  const appLogger = logger ?? createLogger({ logLevel: 'silent', prettyLogs: false })
  const app = Fastify({
    loggerInstance: appLogger,
    logController: new RecordEachRequest(control.recorder),
    serverFactory: serverWithFastPath(fastPath, serverOptions, https),
    genReqId: nextRequestId,
    ...(https === undefined ? {} : { https }),
    requestTimeout: limits.requestTimeout,
    bodyLimit: BODY_LIMIT_BYTES,
    keepAliveTimeout: limits.keepAliveTimeout,
    // While closing, a request on an open connection is answered (with Connection: close), not given Fastify's own 503 body.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: maxHeaderSize },
    clientErrorHandler: answerClientError,
    // A malformed URL is refused before routing, so no hook has run: apply CORS and auth here.
    frameworkErrors: function answerFrameworkError (error, request, reply) {
      corsPolicy.applyTo(request, reply)
      const answer = (waitedMs: number) => {
        sendApiError(reply, guardArea(request.url, request.headers.authorization) ?? toApiError(error))
        // Answered before routing, so the log controller never sees it.
        control.recorder.refusedBeforeRouting(request, reply.statusCode, waitedMs)
      }
      // Under /nvr/v1 it waits for --latency, as every answer there does.
      if (isUnder(request.url, API_PREFIX)) control.faultControl.afterLatency(request.log, answer)
      else answer(0)
    }
  }).withTypeProvider<TypeBoxTypeProvider>()
  control.recorder.logTo(app.log, requestLineWriter(appLogger))
  app.addHook('preClose', function leaveTheFastPath (done) {
    fastPath.stop()
    done()
  })

  // Set on every request up front, so requests keep one shape whether a fault applies or not.
  app.decorateRequest('injectedFault', null)
  answerHttpEdgeCases(app)
  capConnections(app.server, limits.maxConnections, app.log)
  closeConnectionsWhenDone(app, serverOptions.headersTimeout || limits.requestTimeout)
  app.setErrorHandler(handleError)
  app.setNotFoundHandler(handleNotFound)

  for (const schema of [CountingLineSchema, CountingLineEnvelopeSchema, CountingLineListEnvelopeSchema, ErrorEnvelopeSchema]) {
    app.addSchema(schema)
  }
  app.setSerializerCompiler(compileOnFirstUse(app))
  // One hook for every request, first of all: a hook costs on every request, and these are a few checks.
  app.addHook('onRequest', function checkEveryRequest (request, reply, done) {
    if (corsPolicy.answer(request, reply)) return
    const refusal = refuseAtTheEdge(request, reply)
    if (refusal === undefined) {
      done()
      return
    }
    const answer = guardArea(request.url, request.headers.authorization) ?? refusal
    if (isUnder(request.url, API_PREFIX)) control.faultControl.afterLatency(request.log, () => done(answer))
    else done(answer)
  })
  const currentDocument = await registerOpenApi(app, store)
  await registerApiPage(app, currentDocument)

  app.get('/healthz', {
    schema: {
      operationId: 'checkHealth',
      summary: 'Liveness and readiness, without authentication',
      description: 'Answers 200 once the data is loaded and the server listens, with the counts of the data served now.',
      tags: ['Health'],
      security: [],
      response: {
        200: Type.Object({
          status: Type.Literal('ok'),
          cameras: Type.Integer(),
          countingLines: Type.Integer(),
          contractViolations: Type.Optional(Type.Integer({ description: 'When proxying a device: the violations its answers held so far' }))
        }, { description: 'Serving; the counts are of the data served now' }),
        ...healthErrorResponses
      }
    }
  }, function health () {
    const { cameras, lineCount } = store.current
    return { status: 'ok' as const, cameras: cameras.size, countingLines: lineCount, ...(proxy === undefined ? {} : { contractViolations: proxy.violationCount }) }
  })

  if (proxy === undefined) await app.register(countingLinesApi, { prefix: API_PREFIX, store, tokens, faults: control.faultControl, limiter: control.rateLimiter })
  else await app.register(deviceProxyApi, { prefix: API_PREFIX, proxy, faults: control.faultControl })
  if (adminTokens !== undefined) await app.register(adminApi, { prefix: ADMIN_PREFIX, tokens: adminTokens, control })
  // Beside the admin plugin, not in it: the page's files are open, its calls are not.
  if (adminToken !== undefined) await registerDashboard(app)
  return app
}

/** Request ids as Fastify makes them by default (req-1, req-2, …), shared with the fast path. */
function countRequests (): () => string {
  let count = 0
  return function nextRequestId () {
    // Kept a small integer, as Fastify does, so the counter stays fast.
    count = (count + 1) & 0x7fffffff
    return `req-${count.toString(36)}`
  }
}
