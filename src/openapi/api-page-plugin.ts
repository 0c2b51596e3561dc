import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import Fastify, { type RouteHandlerMethod } from 'fastify'
import type { DocumentOf } from './openapi-route.js'

// Inline, so the plugin does not read its default logo file.
const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40">' +
  '<text x="0" y="28" fill="#ffffff" font-family="sans-serif" font-size="24" font-weight="bold">mock-nvr</text></svg>'

/**
 * The handler @fastify/swagger-ui gives each of its routes under `prefix`, by URL, taken from an app of its own
 * that never listens. The handlers read only the request and the reply they are given, so the app serves them.
 */
export async function pageHandlers (prefix: string, currentDocument: DocumentOf): Promise<Map<string, RouteHandlerMethod>> {
  const page = Fastify({ routerOptions: { ignoreTrailingSlash: true } })
  const handlers = new Map<string, RouteHandlerMethod>()
  page.addHook('onRoute', ({ method, url, handler }) => {
    if (method !== 'HEAD') handlers.set(url, handler as RouteHandlerMethod)
  })
  // The page plugin needs @fastify/swagger beside it; the document it serves is the app's, below.
  await page.register(swagger, { openapi: {} })
  await page.register(swaggerUi, {
    routePrefix: prefix,
    logo: { type: 'image/svg+xml', content: LOGO },
    theme: { title: 'mock-nvr API' },
    uiConfig: {
      // The token survives a reload of the page, so a person authorizes once.
      persistAuthorization: true,
      displayRequestDuration: true,
      docExpansion: 'list',
      defaultModelsExpandDepth: 0
    },
    // The plugin's own /docs/json and /docs/yaml serve the document with the current examples too.
    transformSpecification: (_document, request) => currentDocument(request.device.store),
    transformSpecificationClone: false
  })
  await page.ready()
  return handlers
}
