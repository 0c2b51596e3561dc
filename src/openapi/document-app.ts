import swagger from '@fastify/swagger'
import Fastify, { type RouteOptions } from 'fastify'
import type { OpenApiDocument } from './examples.js'
import { VERSION } from '../util/version.js'

/** What the document is made from: the routes the app was given, in their order, and its shared schemas. */
export interface DocumentedRoutes {
  routes: ReadonlyArray<Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config'>>
  schemas: readonly object[]
}

/** Shared schemas are named by their $id in the document; any other keeps swagger's numbered name. */
export function componentName (json: { $id?: unknown }, _baseUri: unknown, _fragment: unknown, index: number): string {
  return typeof json.$id === 'string' ? json.$id : `def-${index}`
}

/**
 * The OpenAPI 3.1 document @fastify/swagger makes of these routes, from an app of its own that never listens:
 * the routes are given again there, with their schemas, and answer nothing. Loaded by the first request for the
 * document, so that neither the plugin nor its YAML writer is part of a start.
 */
export async function documentOf ({ routes, schemas }: DocumentedRoutes): Promise<OpenApiDocument> {
  const app = Fastify()
  // Nothing is validated or answered here: only the schemas' shapes go into the document.
  app.setValidatorCompiler(() => () => true)
  app.setSerializerCompiler(() => JSON.stringify)
  for (const schema of schemas) app.addSchema(schema)
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
  for (const route of routes) app.route({ ...route, handler: answerNothing })
  await app.ready()
  try {
    return app.swagger() as OpenApiDocument
  } finally {
    await app.close()
  }
}

/* c8 ignore next 3: the document's app never listens, nor is it injected */
function answerNothing (): null {
  return null
}
