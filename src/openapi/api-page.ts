import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods, RouteHandlerMethod } from 'fastify'
import type { OpenApiDocuments } from './openapi-route.js'

const API_PAGE_PATH = '/docs'

/** The routes @fastify/swagger-ui serves the page on, its files last; a test holds this list to the plugin's own. */
export const API_PAGE_ROUTES: ReadonlyArray<{ url: string, method: HTTPMethods | HTTPMethods[] }> = [
  { url: API_PAGE_PATH, method: 'GET' },
  { url: `${API_PAGE_PATH}/static/index.html`, method: 'GET' },
  { url: `${API_PAGE_PATH}/static/swagger-initializer.js`, method: 'GET' },
  { url: `${API_PAGE_PATH}/json`, method: 'GET' },
  { url: `${API_PAGE_PATH}/yaml`, method: 'GET' },
  { url: `${API_PAGE_PATH}/static/*`, method: ['HEAD', 'GET'] }
]

/**
 * The interactive API page at /docs, on the same document as /openapi.json; the root redirects to it. The page
 * plugin and its file server are loaded by the page's first request, not at start: each route answers with the
 * handler the plugin gives it.
 */
export function registerApiPage (app: FastifyInstance, documents: OpenApiDocuments): void {
  let handlers: Promise<Map<string, RouteHandlerMethod>> | undefined
  const handlersOnFirstUse = async (): Promise<Map<string, RouteHandlerMethod>> => await (handlers ??= loadHandlers(documents))
  for (const { url, method } of API_PAGE_ROUTES) {
    app.route({
      method,
      url,
      schema: { hide: true },
      ...(Array.isArray(method) ? { errorHandler: letGoOfClientsThatLeft(app) } : {}),
      handler: async function servePage (request, reply) {
        await ((await handlersOnFirstUse()).get(url) as RouteHandlerMethod).call(this, request, reply)
        // The file server answers later, from its stream: Fastify waits for that answer.
        return reply
      }
    })
  }
  app.get('/', { schema: { hide: true } }, function redirectToApiPage (_request, reply) {
    return reply.redirect(API_PAGE_PATH)
  })
}

async function loadHandlers (documents: OpenApiDocuments): Promise<Map<string, RouteHandlerMethod>> {
  // The page's own /docs/json and /docs/yaml give the document as it is, so it is made first.
  await documents.ready()
  /* c8 ignore next: tsx wraps each import() in a CommonJS interop check that an ES module never takes */
  const { pageHandlers } = await import('./api-page-plugin.js')
  return await pageHandlers(API_PAGE_PATH, documents.of)
}

/** As the file server answers on its own routes: a client gone before its file was sent is let go, not answered. */
export function letGoOfClientsThatLeft (app: FastifyInstance) {
  return function answerPageFileError (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') request.raw.destroy()
    else app.errorHandler(error, request, reply)
  }
}
