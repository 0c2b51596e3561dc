import type { FastifyInstance } from 'fastify'
import { ADMIN_PREFIX } from '../contract/paths.js'
import { adminArea, requireBearer } from '../wire/area-guard.js'
import { refuseOtherMethods } from '../wire/method-not-allowed.js'
import type { TokenPolicy } from '../wire/token-policy.js'

/** Where the MCP endpoint is: on the admin address, beside the admin API, behind the admin token. */
export const MCP_PATH = `${ADMIN_PREFIX}/mcp`
// Stateless, it takes POSTs alone: no session to end (DELETE), and no stream to hold open for messages the server
// never sends unasked (GET), which the protocol lets a server refuse with 405.
const MCP_METHODS = ['POST']

/**
 * The MCP endpoint (Streamable HTTP) at /__admin/mcp, for the admin token only. Its code, and the SDK's, is loaded
 * by the first request that passes the token check: a mock-nvr no agent talks to starts and answers as before.
 */
export async function registerMcpEndpoint (app: FastifyInstance, tokens: TokenPolicy, fleet: boolean): Promise<void> {
  await app.register(async function mcp (scope) {
    scope.addHook('onRequest', requireBearer(adminArea(tokens)))
    let endpoint: Promise<typeof import('./http-endpoint.js')> | undefined
    scope.route({
      method: MCP_METHODS,
      url: MCP_PATH,
      schema: { hide: true },
      handler: async function answerMcp (request, reply) {
        /* c8 ignore next: tsx wraps each import() in a CommonJS interop check that an ES module never takes */
        endpoint ??= import('./http-endpoint.js')
        return await (await endpoint).answerMcp(request, reply, fleet)
      }
    })
    refuseOtherMethods(scope, MCP_PATH, MCP_METHODS)
  })
}
