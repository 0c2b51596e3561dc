import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { invalidBody, ok, route } from './routing.js'
import { adminArea, requireBearer } from '../wire/area-guard.js'
import { compileWithTypeBox } from '../wire/typebox-validator.js'
import type { TokenPolicy } from '../wire/token-policy.js'
import type { MockControl } from '../control/mock-control.js'
import { refuseUnknownPaths } from '../wire/method-not-allowed.js'
import { ApiError, apiErrors } from '../wire/errors.js'
import { FaultSpecSchema, type InvalidFaultError } from '../control/faults/fault-spec.js'
import type { FixtureError } from '../data/fixture-validation.js'
import { FixtureDataSchema, RateLimitBodySchema, ScopedTokensSchema } from '../wire/schemas.js'
import type { ScopedTokensError } from '../contract/scoped-tokens.js'
import { EVENT_STREAM_TYPE, JournalStream, type JournalStreamLimits } from './journal-stream.js'

/** Replacement data may be large (generated data serializes to tens of megabytes). */
const DATA_BODY_LIMIT = 64 * 1024 * 1024

export interface AdminApiOptions {
  /** The admin token, the only one that opens every admin call. */
  tokens: TokenPolicy
  control: MockControl
  /** Limits of GET /__admin/requests/stream; each one missing takes its default. */
  streamLimits?: Partial<JournalStreamLimits>
}

/** The admin API: the handle's control verbs over HTTP, JSON in and out, behind its own bearer token. */
export const adminApi: FastifyPluginAsyncTypebox<AdminApiOptions> = async function adminApi (app, { tokens, control, streamLimits }) {
  // A mistake in a body is a 400 naming each JSON path.
  app.setValidatorCompiler(compileWithTypeBox(invalidBody))
  // JSON only: a text body would otherwise reach validation as a string and read as "must be an object".
  app.removeContentTypeParser('text/plain')
  app.addHook('onRequest', requireBearer(adminArea(tokens)))

  route(app, '/data', {
    GET: (_request, reply) => ok(reply, control.data()),
    PUT: (request, reply) => {
      const summary = useData(control, request.body)
      request.log.info(summary, 'admin: data replaced')
      return ok(reply, summary)
    },
    DELETE: (request, reply) => {
      const summary = control.resetData()
      request.log.info(summary, 'admin: data reset to the start-up data')
      return ok(reply, summary)
    }
  }, { bodyLimit: DATA_BODY_LIMIT, schema: { hide: true, body: FixtureDataSchema } })

  route(app, '/requests', {
    GET: (_request, reply) => ok(reply, { requests: control.requests(), total: control.journal.total, capacity: control.journal.capacity }),
    DELETE: (_request, reply) => {
      control.resetRequests()
      return ok(reply, null)
    }
  })

  const journalStream = new JournalStream(control.journal, streamLimits)
  app.addHook('preClose', function endJournalStreams (done) {
    journalStream.closeAll()
    done()
  })
  route(app, '/requests/stream', {
    GET: (_request, reply) => {
      reply.type(EVENT_STREAM_TYPE).header('cache-control', 'no-store')
      if (reply.request.method === 'HEAD') return reply.send()
      const listener = journalStream.open()
      if (listener === undefined) throw apiErrors.tooManyStreams(journalStream.limits.maxListeners)
      return reply.send(listener.readable)
    }
  })

  route(app, '/faults', {
    GET: (_request, reply) => ok(reply, control.faults()),
    POST: (request, reply) => {
      const fault = injectFault(control, request.body)
      request.log.info({ fault }, `admin: ${fault.id} injected`)
      return ok(reply, fault, 201)
    },
    DELETE: (request, reply) => {
      control.clearFaults()
      request.log.info('admin: every fault cleared')
      return ok(reply, null)
    }
  }, { schema: { hide: true, body: FaultSpecSchema } })

  route(app, '/faults/:id', {
    DELETE: (request, reply) => {
      const { id } = request.params as { id: string }
      if (!control.clearFaults(id)) throw apiErrors.faultNotFound(id)
      request.log.info(`admin: ${id} cleared`)
      return ok(reply, null)
    }
  })

  // The tokens are never given back, nor logged: GET and PUT answer how many there are.
  route(app, '/scoped-tokens', {
    GET: (_request, reply) => ok(reply, control.scopedTokens()),
    PUT: (request, reply) => {
      const summary = setScopedTokens(control, request.body)
      request.log.info(summary, 'admin: scoped tokens replaced')
      return ok(reply, summary)
    }
  }, { schema: { hide: true, body: ScopedTokensSchema } })

  route(app, '/rate-limit', {
    GET: (_request, reply) => ok(reply, control.rateLimit()),
    PUT: (request, reply) => {
      const summary = control.setRateLimit((request.body as { rateLimit: number | null }).rateLimit)
      request.log.info(summary, 'admin: rate limit set')
      return ok(reply, summary)
    }
  }, { schema: { hide: true, body: RateLimitBodySchema } })

  route(app, '/reset', {
    POST: (request, reply) => {
      control.reset()
      request.log.info('admin: reset to the start-up data, scoped tokens and rate limit, no faults, an empty journal')
      return ok(reply, null)
    }
  })

  // Unknown admin paths are routes of this plugin, so they need the admin token too.
  refuseUnknownPaths(app)
}

function useData (control: MockControl, body: unknown) {
  try {
    return control.use(body, 'request body')
  } catch (error) {
    // The refusal while proxying a device, as it is.
    if (error instanceof ApiError) throw error
    // Else use() throws nothing but FixtureError: the data is validated like a fixture file, and nothing changed.
    throw invalidBody((error as FixtureError).problems)
  }
}

function setScopedTokens (control: MockControl, body: unknown) {
  try {
    return control.setScopedTokens(body)
  } catch (error) {
    // The body's shape is checked already: what is left is a token that cannot be scoped (the admin token, an all-camera one).
    throw invalidBody((error as ScopedTokensError).problems)
  }
}

function injectFault (control: MockControl, body: unknown) {
  try {
    return control.injectFault(body)
  } catch (error) {
    throw invalidBody((error as InvalidFaultError).problems)
  }
}
