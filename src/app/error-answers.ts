import type { FastifyInstance } from 'fastify'
import { CountingLineEnvelopeSchema, CountingLineListEnvelopeSchema, CountingLineSchema, ErrorEnvelopeSchema } from '../contract/schemas.js'
import { handleError, handleNotFound } from '../wire/error-handler.js'
import { compileOnFirstUse } from './lazy-serializer.js'

/** Every refusal and failure in the error envelope, and the envelopes' shared schemas, compiled when first used. */
export function registerErrorAnswers (app: FastifyInstance): void {
  app.setErrorHandler(handleError)
  app.setNotFoundHandler(handleNotFound)
  for (const schema of [CountingLineSchema, CountingLineEnvelopeSchema, CountingLineListEnvelopeSchema, ErrorEnvelopeSchema]) {
    app.addSchema(schema)
  }
  app.setSerializerCompiler(compileOnFirstUse(app))
}
