import swagger from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'
import { VERSION } from './version.js'

/** Shared schemas are named by their $id in the document; any other keeps swagger's numbered name. */
export function componentName (json: { $id?: unknown }, _baseUri: unknown, _fragment: unknown, index: number): string {
  return typeof json.$id === 'string' ? json.$id : `def-${index}`
}

/**
 * The OpenAPI 3.1 document, built by @fastify/swagger from the route schemas. Registered before the
 * routes so it sees them; shared schemas keep their $id as component names (CountingLine, not def-0).
 */
export async function registerOpenApi (app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'mock-nvr: Counting Lines Read API',
        description: 'A stand-in network video recorder serving the two read operations on the counting lines of a camera.',
        version: VERSION
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } }
      }
    },
    refResolver: {
      buildLocalReference: componentName
    }
  })
  app.get('/openapi.json', { schema: { hide: true } }, function openApiDocument () {
    return app.swagger()
  })
}
