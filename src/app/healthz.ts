import { Type } from '@sinclair/typebox'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { healthErrorResponses } from '../openapi/response-schemas.js'
import type { TargetProxy } from '../target-proxy/target-proxy.js'

/** GET /healthz: liveness and readiness, without authentication, with the counts of the data served now. */
export function registerHealthz (app: FastifyInstance, proxy: TargetProxy | undefined): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get('/healthz', {
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
          contractViolations: Type.Optional(Type.Integer({ description: 'When proxying the target: the violations its answers held so far' }))
        }, { description: 'Serving; the counts are of the data served now' }),
        ...healthErrorResponses
      }
    }
  }, function health (request) {
    const { cameras, lineCount } = request.device.store.current
    return { status: 'ok' as const, cameras: cameras.size, countingLines: lineCount, ...(proxy === undefined ? {} : { contractViolations: proxy.violationCount }) }
  })
}
