import type { FastifyReply, FastifyRequest } from 'fastify'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { injectCaller } from './admin-caller.js'
import { createMcpServer } from './mcp-server.js'

/**
 * Answers one request of the MCP endpoint, statelessly: an MCP server of this app's verbs for the request, whose
 * tools call the admin API in-process with the request's own credentials, over the SDK's Streamable HTTP
 * transport, answering JSON (no stream is held open). A browser page of another origin is refused with 403 (DNS rebinding).
 */
export async function answerMcp (request: FastifyRequest, reply: FastifyReply, fleet: boolean): Promise<FastifyReply> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    enableDnsRebindingProtection: true,
    allowedOrigins: ownOrigins(request)
  })
  // The request passed the admin token check: its Authorization header is the admin token's.
  const server = createMcpServer({ call: injectCaller(request.server, request.headers.authorization as string), fleet })
  await server.connect(transport)
  try {
    const answer = await transport.handleRequest(webRequest(request), { parsedBody: request.body })
    reply.code(answer.status)
    answer.headers.forEach((value, name) => { reply.header(name, value) })
    return await reply.send(await answer.text())
  } finally {
    await server.close()
  }
}

/**
 * The origins of a page this mock-nvr serves itself, on the address the request came to: a loopback name or the
 * address itself, with its port. A page of any other origin (a name that resolves here by DNS rebinding) is refused.
 */
export function ownOrigins (request: FastifyRequest): string[] {
  const { localPort, localAddress } = request.socket
  const hosts = ['localhost', '127.0.0.1', '[::1]']
  const address = localAddress?.replace(/^::ffff:/, '')
  if (address !== undefined) hosts.push(address.includes(':') ? `[${address}]` : address)
  return hosts.map(host => `${request.protocol}://${host}${localPort === undefined ? '' : `:${localPort}`}`)
}

// The request as the SDK's transport reads it: method, headers and URL; its body is given already parsed.
function webRequest (request: FastifyRequest): Request {
  // Node gives a header's value as a string, or as an array for set-cookie alone.
  const headers = new Headers(Object.entries(request.headers).map(([name, value]): [string, string] => [name, String(value)]))
  return new Request(`${request.protocol}://${request.host}${request.url}`, { method: request.method, headers })
}
