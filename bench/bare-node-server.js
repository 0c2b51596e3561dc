// What any server on Node pays for a request: node:http alone, no framework, no logger, no auth, answering each
// URL of the routes file with its precomputed body and the headers bare Fastify sends (content-type,
// content-length; Node adds date and keep-alive). The floor under both bare Fastify and the mock's fast path.
// Usage: node bench/bare-node-server.js PORT ROUTES.json, where the file holds [{ "url", "body" }].
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const [port, routesFile] = process.argv.slice(2)
const bodies = new Map(JSON.parse(readFileSync(routesFile, 'utf8')).map(({ url, body }) => [url, Buffer.from(body)]))

const server = createServer(function precomputed (request, response) {
  const body = bodies.get(request.url)
  if (body === undefined) {
    response.writeHead(404).end()
    return
  }
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length })
  response.end(body)
})
server.listen(Number(port), '127.0.0.1')
process.on('SIGTERM', () => { server.close(() => process.exit(0)); server.closeAllConnections() })
