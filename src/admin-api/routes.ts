import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { guardAdminArea, invalidBody, ok, route } from './routing.js'
import type { TokenPolicy } from '../wire/token-policy.js'
import type { MockControl } from '../control/mock-control.js'
import type { Device } from '../device/device.js'
import type { RequestJournal } from '../control/journal.js'
import { refuseUnknownPaths } from '../wire/method-not-allowed.js'
import { ApiError, apiErrors } from '../wire/errors.js'
import { FaultSpecSchema, type InvalidFaultError } from '../control/faults/fault-spec.js'
import type { FixtureError } from '../data/fixture-validation.js'
import { FixtureDataSchema, RateLimitBodySchema, ScopedTokensSchema } from '../contract/schemas.js'
import type { ScopedTokensError } from '../contract/scoped-tokens.js'
import { answerWithStream, deviceSource, JournalStream, type JournalStreamLimits } from './journal-stream.js'
import type { DeviceHealth } from '../health/device-health.js'
import type { HealthSpecError } from '../health/health-spec.js'
import type { ManualClock } from '../util/clock.js'
import { Type } from '@sinclair/typebox'
import { MAX_TIMER_MS } from '../util/delay.js'

/** Replacement data may be large (generated data serializes to tens of megabytes). */
const DATA_BODY_LIMIT = 64 * 1024 * 1024

export interface AdminApiOptions {
  /** The admin token, the only one that opens every admin call. */
  tokens: TokenPolicy
  /** The device a request acts on: its own, or the one a fleet's path names; throws an ApiError when there is none. */
  deviceOf: (request: FastifyRequest) => Device
  /** Limits of GET /__admin/requests/stream; each one missing takes its default. */
  streamLimits?: Partial<JournalStreamLimits>
  /**
   * The admin API shares the device's port (a single mock-nvr): a state that would close the port for good is
   * refused, since the admin API could not end it (see setHealth).
   */
  sharesDevicePort?: boolean
  /** The schedules' clock, when moved by hand at /__admin/clock; the real one when absent. */
  manualClock?: HandClock
  /** Whether /__admin/clock is this plugin's: a single mock-nvr's, not a fleet's device's (the fleet has one clock). */
  ownsClock?: boolean
}

/** A manual clock, and what resolves once the ports have followed its last move. */
export interface HandClock {
  clock: ManualClock
  settled: () => Promise<unknown>
}

const ClockBodySchema = Type.Object({ advance: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS }) }, { additionalProperties: false })

// These close the port for a while, and with it an admin API that shares it.
const PORT_CLOSING_STATES: ReadonlySet<unknown> = new Set(['offline', 'rebooting'])

/**
 * The admin API: the handle's control verbs over HTTP, JSON in and out, behind its own bearer token. It acts
 * on one device's control, found from the request: a single mock-nvr's own, or the device a fleet's path names.
 */
export const adminApi: FastifyPluginAsyncTypebox<AdminApiOptions> = async function adminApi (app, { tokens, deviceOf, streamLimits, sharesDevicePort = false, manualClock, ownsClock = true }) {
  guardAdminArea(app, tokens)
  // What the clock makes of a state that closes a port the admin API shares; nothing when it shares none.
  const sharedPortClock = !sharesDevicePort ? undefined : manualClock === undefined ? 'real' : 'manual'
  const controlOf = (request: FastifyRequest): MockControl => deviceOf(request).control

  route(app, '/data', {
    GET: (request, reply) => ok(reply, controlOf(request).data()),
    PUT: (request, reply) => {
      const summary = useData(controlOf(request), request.body)
      request.log.info(summary, 'admin: data replaced')
      return ok(reply, summary)
    },
    DELETE: (request, reply) => {
      const summary = controlOf(request).resetData()
      request.log.info(summary, 'admin: data reset to the start-up data')
      return ok(reply, summary)
    }
  }, { bodyLimit: DATA_BODY_LIMIT, schema: { hide: true, body: FixtureDataSchema } })

  route(app, '/requests', {
    GET: (request, reply) => {
      const control = controlOf(request)
      return ok(reply, { requests: control.requests(), total: control.journal.total, capacity: control.journal.capacity })
    },
    DELETE: (request, reply) => {
      controlOf(request).resetRequests()
      return ok(reply, null)
    }
  })

  route(app, '/events', {
    GET: (request, reply) => ok(reply, controlOf(request).events.entries())
  })

  route(app, '/health', {
    GET: (request, reply) => ok(reply, healthOf(deviceOf(request)).report()),
    PUT: async (request, reply) => {
      const health = healthOf(deviceOf(request))
      const asked = setHealth(health, request.body, sharedPortClock)
      request.log.info({ health: request.body }, `admin: health set to ${asked.state}`)
      await health.settled()
      return ok(reply, health.report())
    }
  })

  if (ownsClock) registerClock(app, manualClock)

  // One stream per journal, made when it is first asked for; the device's changes of health and data go with it.
  const journalStreams = new Map<RequestJournal, JournalStream>()
  const journalStreamOf = (control: MockControl): JournalStream => {
    let stream = journalStreams.get(control.journal)
    if (stream === undefined) {
      stream = new JournalStream(deviceSource(control.journal, control.events), streamLimits)
      journalStreams.set(control.journal, stream)
    }
    return stream
  }
  app.addHook('preClose', function endJournalStreams (done) {
    for (const stream of journalStreams.values()) stream.closeAll()
    done()
  })
  route(app, '/requests/stream', {
    GET: (request, reply) => answerWithStream(reply, journalStreamOf(controlOf(request)))
  })

  route(app, '/faults', {
    GET: (request, reply) => ok(reply, controlOf(request).faults()),
    POST: (request, reply) => {
      const fault = injectFault(controlOf(request), request.body)
      request.log.info({ fault }, `admin: ${fault.id} injected`)
      return ok(reply, fault, 201)
    },
    DELETE: (request, reply) => {
      controlOf(request).clearFaults()
      request.log.info('admin: every fault cleared')
      return ok(reply, null)
    }
  }, { schema: { hide: true, body: FaultSpecSchema } })

  route(app, '/faults/:id', {
    DELETE: (request, reply) => {
      const { id } = request.params as { id: string }
      if (!controlOf(request).clearFaults(id)) throw apiErrors.faultNotFound(id)
      request.log.info(`admin: ${id} cleared`)
      return ok(reply, null)
    }
  })

  // The tokens are never given back, nor logged: GET and PUT answer how many there are.
  route(app, '/scoped-tokens', {
    GET: (request, reply) => ok(reply, controlOf(request).scopedTokens()),
    PUT: (request, reply) => {
      const summary = setScopedTokens(controlOf(request), request.body)
      request.log.info(summary, 'admin: scoped tokens replaced')
      return ok(reply, summary)
    }
  }, { schema: { hide: true, body: ScopedTokensSchema } })

  route(app, '/rate-limit', {
    GET: (request, reply) => ok(reply, controlOf(request).rateLimit()),
    PUT: (request, reply) => {
      const summary = controlOf(request).setRateLimit((request.body as { rateLimit: number | null }).rateLimit)
      request.log.info(summary, 'admin: rate limit set')
      return ok(reply, summary)
    }
  }, { schema: { hide: true, body: RateLimitBodySchema } })

  route(app, '/reset', {
    POST: async (request, reply) => {
      await deviceOf(request).reset()
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
    // The refusal while proxying the target, as it is.
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

/**
 * GET /__admin/clock reads the schedules' clock. POST {"advance": ms} moves a manual one on, and answers once the
 * ports follow; on the real clock, which moves by itself, it is a 409 saying how to get a manual one.
 */
export function registerClock (app: FastifyInstance, manual: HandClock | undefined): void {
  const now = () => ({ now: new Date(manual === undefined ? Date.now() : manual.clock.now()).toISOString() })
  if (manual === undefined) {
    route(app, '/clock', {
      GET: (_request, reply) => ok(reply, now()),
      POST: () => { throw apiErrors.clockNotManual() }
    })
    return
  }
  route(app, '/clock', {
    GET: (_request, reply) => ok(reply, now()),
    POST: async (request, reply) => {
      manual.clock.advance((request.body as { advance: number }).advance)
      await manual.settled()
      return ok(reply, now())
    }
  }, { schema: { hide: true, body: ClockBodySchema } })
}

function healthOf (device: Device): DeviceHealth {
  // A proxy serves the target's answers, whose health is its own.
  if (device.health === undefined) throw apiErrors.routeNotFound()
  return device.health
}

/**
 * Sets a state, unless the admin API shares the device's port (`sharedPortClock`) and the state would close that
 * port for good: on the real clock an offline without `for`; on the manual clock, which nothing could move while
 * the port is closed, any state that closes it.
 */
function setHealth (health: DeviceHealth, body: unknown, sharedPortClock: 'real' | 'manual' | undefined) {
  const state = (body as { state?: unknown } | null)?.state
  if (sharedPortClock === 'manual' && PORT_CLOSING_STATES.has(state)) throw apiErrors.healthLocksOut(String(state))
  if (sharedPortClock === 'real' && state === 'offline' && (body as { for?: unknown }).for === undefined) {
    throw invalidBody([{ path: '/for', message: `is needed for ${String(state)} here: the admin API shares the port that goes away, so give the milliseconds after which it comes back` }])
  }
  try {
    return health.set(body)
  } catch (error) {
    throw invalidBody((error as HealthSpecError).problems)
  }
}
