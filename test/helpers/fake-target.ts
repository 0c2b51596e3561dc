import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import type { Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/app/build-app.js'
import { DataStore } from '../../src/data/data-store.js'
import { datasetFromData } from '../../src/data/dataset.js'
import { CorsPolicy } from '../../src/wire/cors.js'
import { TokenPolicy } from '../../src/wire/token-policy.js'
import type { FixtureData } from '../../src/contract/schemas.js'

export type TargetHandler = (request: IncomingMessage, response: ServerResponse) => void

/** A target on 127.0.0.1 that answers as the handler says; over HTTPS with these credentials. Closed at teardown. */
export async function startFakeTarget (t: Test, handler: TargetHandler, tls?: { cert: string, key: string }): Promise<{ url: string, requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = []
  const handle: TargetHandler = (request, response) => {
    requests.push(request)
    handler(request, response)
  }
  const server = tls === undefined ? createServer(handle) : createHttpsServer(tls, handle)
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.teardown(() => {
    server.closeAllConnections()
    return new Promise(resolve => server.close(() => resolve(undefined)))
  })
  return { url: `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${(server.address() as AddressInfo).port}`, requests }
}

/** Sends JSON (or any text) with a status and headers. */
export function send (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
  response.end(text)
}

/** A success envelope around content. */
export function ok (content: unknown): unknown {
  return { result: { success: true, httpCode: 200 }, content }
}

/**
 * A target that is mock-nvr (its app on this data, accepting this token), except where `override` answers
 * first: so a test changes just the cases it is about.
 */
export async function mockLikeTarget (t: Test, data: FixtureData, token: string, override: (request: IncomingMessage, response: ServerResponse) => boolean = () => false) {
  const app: FastifyInstance = await buildApp({ store: new DataStore(datasetFromData(data)), tokens: new TokenPolicy([token]), cors: new CorsPolicy(), maxHeaderSize: 65536 })
  t.teardown(() => app.close())
  return startFakeTarget(t, (request, response) => {
    if (override(request, response)) return
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      app.inject({ method: request.method as 'GET', url: request.url as string, headers: request.headers, payload: Buffer.concat(chunks) }).then(answer => {
        const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => name !== 'connection' && name !== 'transfer-encoding')) as Record<string, string>
        response.writeHead(answer.statusCode, headers)
        response.end(answer.rawPayload)
      }, () => response.destroy())
    })
  })
}
