import fastJson, { type Schema } from 'fast-json-stringify'
import type { FastifyInstance } from 'fastify'

type Serialize = (data: unknown) => string

/**
 * Fastify's serializer compiler, compiling a route's response schema on its first answer of that status
 * instead of at start. The API answers with prepared bytes and every error as prepared text, so most
 * response schemas (there for the OpenAPI document) never serialize anything, and compiling them all
 * took tens of milliseconds of every start. The shared schemas are read then, so every one is known.
 */
export function compileOnFirstUse (app: FastifyInstance): (route: { schema: unknown }) => Serialize {
  return function compile ({ schema }) {
    let serialize: Serialize | undefined
    return function serializeLazily (data) {
      serialize ??= fastJson(schema as Schema, { schema: app.getSchemas() as Record<string, Schema> }) as Serialize
      return serialize(data)
    }
  }
}
