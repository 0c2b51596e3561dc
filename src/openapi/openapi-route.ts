import type { FastifyInstance } from 'fastify'
import type { DataStore, ServedData } from '../data/data-store.js'
import type { DocumentedRoutes } from './document-app.js'
import { withExamples, type OpenApiDocument } from './examples.js'

/** The document with examples from what this store serves now. */
export type DocumentOf = (store: DataStore) => OpenApiDocument

/** The app's OpenAPI document: made at the first request that needs it, then given with each store's examples. */
export interface OpenApiDocuments {
  /** Resolves once the document of the app's routes is made; the first call makes it. */
  ready: () => Promise<void>
  /** The document with examples from what this store serves now; only once ready() has resolved. */
  of: DocumentOf
}

/**
 * GET /openapi.json: the OpenAPI 3.1 document of the app's routes, with examples from the data the device
 * serves. Registered before the routes, so it sees them; @fastify/swagger makes the document at the first
 * request for it (document-app.ts), not at start.
 */
export function registerOpenApi (app: FastifyInstance): OpenApiDocuments {
  const documented = recordRoutes(app)
  let making: Promise<OpenApiDocument> | undefined
  let base: OpenApiDocument | undefined
  async function ready (): Promise<void> {
    base = await (making ??= makeDocument(documented()))
  }
  const of = documentFollowingTheData(() => base as OpenApiDocument)
  app.get('/openapi.json', { schema: { hide: true } }, async function openApiDocument (request) {
    await ready()
    return of(request.device.store)
  })
  return { ready, of }
}

async function makeDocument (documented: DocumentedRoutes): Promise<OpenApiDocument> {
  /* c8 ignore next: tsx wraps each import() in a CommonJS interop check that an ES module never takes */
  const { documentOf } = await import('./document-app.js')
  return await documentOf(documented)
}

/**
 * The routes the document shows, as @fastify/swagger would have seen them (a GET's HEAD and the hidden ones
 * aside: they may answer methods of the app's own), and the shared schemas of every context.
 */
function recordRoutes (app: FastifyInstance): () => DocumentedRoutes {
  const routes: Array<DocumentedRoutes['routes'][number]> = []
  const contexts: FastifyInstance[] = [app]
  app.addHook('onRoute', ({ method, url, schema, config }) => {
    if (method !== 'HEAD' && schema?.hide !== true) routes.push({ method, url, schema, config })
  })
  app.addHook('onRegister', context => { contexts.push(context) })
  return function documented () {
    const schemas = new Map(contexts.flatMap(context => Object.entries(context.getSchemas() as Record<string, object>)))
    return { routes, schemas: [...schemas.values()] }
  }
}

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
