import cors from '@fastify/cors'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import { registerApiPage } from './api-page.js'
import type { TokenPolicy } from './auth.js'
import { answerClientError } from './client-errors.js'
import { closeConnectionsWhenDone } from './closing.js'
import type { CorsPolicy } from './cors.js'
import type { DataStore } from './data-store.js'
import { apiErrors, handleError, handleNotFound, sendApiError, toApiError } from './errors.js'
import { answerHttpEdgeCases } from './http-edges.js'
import { capConnections, DEFAULT_LIMITS, nodeServerOptions, type ServerLimits } from './limits.js'
import { OneLinePerRequest } from './logger.js'
import { registerOpenApi } from './openapi.js'
import { API_PREFIX, countingLinesApi } from './routes.js'
import { CountingLineEnvelopeSchema, CountingLineListEnvelopeSchema, CountingLineSchema, ErrorEnvelopeSchema } from './schemas.js'
import type { TlsCredentials } from './tls.js'

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
}

/** The Fastify instance with every plugin in the order that matters. It never listens. */
export async function buildApp ({ store, tokens, cors: corsPolicy, maxHeaderSize, limits: someLimits, logger, https }: AppDependencies): Promise<FastifyInstance> {
  const limits = { ...DEFAULT_LIMITS, ...someLimits }
  const serverOptions = nodeServerOptions(maxHeaderSize, limits)
  const app = Fastify({
    ...(logger === undefined ? {} : { loggerInstance: logger }),
    logController: new OneLinePerRequest(),
    http: serverOptions,
    // Fastify hands only the https options to an HTTPS server, so the limits go there too.
    ...(https === undefined ? {} : { https: { ...https, ...serverOptions } }),
    requestTimeout: limits.requestTimeout,
    keepAliveTimeout: limits.keepAliveTimeout,
    // While closing, a request on an open connection is answered (with Connection: close), not given Fastify's own 503 body.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: maxHeaderSize },
    clientErrorHandler: answerClientError,
    // A malformed URL is refused before routing, so no hook has run: apply CORS and auth here.
    frameworkErrors: function answerFrameworkError (error, request, reply) {
      corsPolicy.applyTo(request, reply)
      const outcome = request.url.startsWith(`${API_PREFIX}/`) ? tokens.judge(request.headers.authorization) : 'accepted'
      return sendApiError(reply, outcome === 'accepted' ? toApiError(error) : apiErrors.unauthorized(outcome))
    }
  }).withTypeProvider<TypeBoxTypeProvider>()

  answerHttpEdgeCases(app)
  capConnections(app.server, limits.maxConnections, app.log)
  closeConnectionsWhenDone(app, serverOptions.headersTimeout || limits.requestTimeout)
  app.setErrorHandler(handleError)
  app.setNotFoundHandler(handleNotFound)

  for (const schema of [CountingLineSchema, CountingLineEnvelopeSchema, CountingLineListEnvelopeSchema, ErrorEnvelopeSchema]) {
    app.addSchema(schema)
  }
  await app.register(cors, corsPolicy.pluginOptions())
  const currentDocument = await registerOpenApi(app, store)
  await registerApiPage(app, currentDocument)

  app.get('/healthz', {
    schema: {
      summary: 'Liveness and readiness, without authentication',
      tags: ['Health'],
      response: {
        200: Type.Object({ status: Type.Literal('ok'), cameras: Type.Integer(), countingLines: Type.Integer() }, { description: 'Serving; the counts are of the data served now' })
      }
    }
  }, function health () {
    const { cameraIds, lines } = store.current.dataset
    return { status: 'ok' as const, cameras: cameraIds.length, countingLines: lines.length }
  })

  await app.register(countingLinesApi, { prefix: API_PREFIX, store, tokens })
  return app
}
