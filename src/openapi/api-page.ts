import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import type { DocumentOf } from './swagger.js'

const API_PAGE_PATH = '/docs'

// Inline, so the plugin does not read its default logo file at every start.
const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40">' +
  '<text x="0" y="28" fill="#ffffff" font-family="sans-serif" font-size="24" font-weight="bold">mock-nvr</text></svg>'

/** The interactive API page at /docs, on the same document as /openapi.json; the root redirects to it. */
export async function registerApiPage (app: FastifyInstance, currentDocument: DocumentOf): Promise<void> {
  await app.register(swaggerUi, {
    routePrefix: API_PAGE_PATH,
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

  app.get('/', { schema: { hide: true } }, function redirectToApiPage (_request, reply) {
    return reply.redirect(API_PAGE_PATH)
  })
}
