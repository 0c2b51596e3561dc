// The ceiling the mock is measured against: a bare Fastify server, no logger, no plugins, no auth, on the
// API's two route patterns, answering each URL with a precomputed body. Plain JavaScript run by plain
// node, like the mock's dist/ build, so neither start time includes a TypeScript loader.
// Usage: node bench/bare-fastify-server.js PORT ROUTES.json, where the file holds [{ "url", "body" }].
import { readFileSync } from 'node:fs'
import Fastify from 'fastify'

const [port, routesFile] = process.argv.slice(2)
const bodies = new Map(JSON.parse(readFileSync(routesFile, 'utf8')).map(({ url, body }) => [url, Buffer.from(body)]))

const app = Fastify()
for (const url of ['/nvr/v1/cameras/:id/counting_lines', '/nvr/v1/cameras/:id/counting_lines/:line_id']) {
  app.get(url, function precomputed (request, reply) {
    reply.type('application/json; charset=utf-8').send(bodies.get(request.url))
  })
}
await app.listen({ port: Number(port), host: '127.0.0.1' })
process.on('SIGTERM', () => { app.close().then(() => process.exit(0)) })
