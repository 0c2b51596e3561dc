import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { decideForTarget } from '../pipeline/decide.js'
import { apiRequestOf, carryOut } from '../device-api/carry-out.js'
import { apiErrors } from '../wire/errors.js'
import { OPERATIONS } from '../contract/paths.js'
import type { TargetProxy, NoAnswerError } from './target-proxy.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** Contract violations the target's answer to this request held, when it was proxied; null otherwise. */
    contractViolations: number | null
  }
}

export interface TargetProxyApiOptions {
  proxy: TargetProxy
}

// What a client reads of an answer besides the body; CORS stays mock-nvr's, since the browser talks to it.
const PASSED_BACK = ['content-type', 'www-authenticate', 'allow', 'retry-after', 'cache-control', 'etag', 'last-modified', 'location']
const PASSED_ON = ['authorization', 'accept', 'content-type', 'if-none-match', 'if-modified-since']

/** /nvr/v1 forwarded to the target: faults and latency first, then the target's answer, checked as it passes. */
export const targetProxyApi: FastifyPluginAsync<TargetProxyApiOptions> = async function targetProxyApi (app, { proxy }) {
  app.decorateRequest('contractViolations', null)
  app.decorateRequest('plan', null)
  // Injected faults, latency and Prefer handling, in front of the target.
  app.addHook('onRequest', function decideFaults (request, reply, done) {
    carryOut(decideForTarget(request.device, apiRequestOf(request)), request, reply, done)
  })
  app.addHook('onClose', async function closeTargetConnections () { await proxy.close() })
  // Bodies go to the target as they came, whatever their type.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer' }, function keepBody (_request, body, done) { done(null, body) })

  async function forwardToTarget (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const headers: Record<string, string> = {}
    for (const name of PASSED_ON) {
      const value = request.headers[name]
      if (typeof value === 'string') headers[name] = value
    }
    let answer
    try {
      answer = await proxy.forward(request.method, request.url, headers, request.body as Buffer | undefined)
    } catch (error) {
      // TargetClient rejects with nothing but NoAnswerError.
      const reason = (error as NoAnswerError).message
      request.log.warn({ reason }, 'the target did not answer')
      const timedOut = reason.startsWith('no answer within')
      throw apiErrors.targetNoAnswer(timedOut, reason)
    }
    request.contractViolations = proxy.inspect(request.method, request.url, answer, request.headers.authorization, request.log)
    for (const name of PASSED_BACK) {
      const value = answer.headers[name]
      if (value !== undefined) reply.header(name, value)
    }
    return reply.code(answer.status).send(answer.body)
  }

  // The two operations' paths as routes of their own, so that the router gives a proxied read its camera and line
  // as it gives a served one: the journal's params, and the scope of a fault. Every other path goes on as it is.
  for (const url of [...OPERATIONS.map(row => row.path), '/*', '/']) {
    app.route({ method: app.supportedMethods, url, schema: { hide: true }, handler: forwardToTarget })
  }
}
