// The ceiling the mock is measured against: a bare Fastify server, no logger, no plugins, no auth, whose
// routes send precomputed bodies. Plain JavaScript run by plain node, like the mock's dist/ build, so
// neither start time includes a TypeScript loader.
// Usage: node bench/bare-fastify-server.js PORT ROUTES.json, where the file holds [{ "url", "body" }].
import { readFileSync } from 'node:fs'
import Fastify from 'fastify'

const [port, routesFile] = process.argv.slice(2)
const routes = JSON.parse(readFileSync(routesFile, 'utf8'))

const app = Fastify()
for (const { url, body } of routes) {
  const payload = Buffer.from(body)
  app.get(url, function precomputed (_request, reply) {
    reply.type('application/json; charset=utf-8').send(payload)
  })
}
await app.listen({ port: Number(port), host: '127.0.0.1' })
process.on('SIGTERM', () => { app.close().then(() => process.exit(0)) })
