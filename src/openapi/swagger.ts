import swagger from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'
import type { DataStore, ServedData } from '../data/data-store.js'
import { withExamples, type OpenApiDocument } from './examples.js'
import { VERSION } from '../util/version.js'

/** Shared schemas are named by their $id in the document; any other keeps swagger's numbered name. */
export function componentName (json: { $id?: unknown }, _baseUri: unknown, _fragment: unknown, index: number): string {
  return typeof json.$id === 'string' ? json.$id : `def-${index}`
}

/**
 * The OpenAPI 3.1 document, built by @fastify/swagger from the route schemas. Registered before the
 * routes so it sees them; shared schemas keep their $id as component names (CountingLine, not def-0).
 * Returns the function that gives the document with examples from the data a store serves at that moment.
 */
export async function registerOpenApi (app: FastifyInstance): Promise<DocumentOf> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'mock-nvr: Counting Lines Read API',
        description: 'A stand-in network video recorder serving the two read operations on the counting lines of a camera. ' +
          'The examples come from the data being served.',
        version: VERSION,
        license: { name: 'MIT', identifier: 'MIT' }
      },
      tags: [
        { name: 'Health', description: 'Whether the mock is up, for Docker health checks and CI wait loops' },
        { name: 'Counting lines', description: 'The two read operations of the device API, behind a bearer token' }
      ],
      // Relative, so the interactive page calls the origin that served it, whatever host, port or scheme.
      servers: [{ url: '/' }],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'Any token given with --token; any non-empty token when none is' } }
      }
    },
    refResolver: {
      buildLocalReference: componentName
    }
  })
  const currentDocument = documentFollowingTheData(() => app.swagger() as OpenApiDocument)
  app.get('/openapi.json', { schema: { hide: true } }, function openApiDocument (request) {
    return currentDocument(request.device.store)
  })
  return currentDocument
}

/** The document with examples from what this store serves now. */
export type DocumentOf = (store: DataStore) => OpenApiDocument

/**
 * Examples are rebuilt only when the served data has been replaced (a reload), not on every request; devices
 * that serve the same data share one document.
 */
function documentFollowingTheData (baseDocument: () => OpenApiDocument): DocumentOf {
  const documents = new WeakMap<ServedData, OpenApiDocument>()
  return function currentDocument (store) {
    const served = store.current
    let document = documents.get(served)
    if (document === undefined) {
      document = withExamples(baseDocument(), served)
      documents.set(served, document)
    }
    return document
  }
}
