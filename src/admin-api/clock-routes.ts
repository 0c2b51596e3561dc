import { setImmediate as nextTurn } from 'node:timers/promises'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import type { ManualClock } from '../util/clock.js'
import { MAX_TIMER_MS } from '../util/delay.js'
import { apiErrors } from '../wire/errors.js'
import { ok, route } from './routing.js'

/** A manual clock, and what resolves once the ports have followed its last move. */
export interface HandClock {
  clock: ManualClock
  settled: () => Promise<unknown>
}

/** The body of POST /__admin/clock, which the MCP tool of the same verb takes too. */
export const ClockBodySchema = Type.Object({ advance: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS }) }, { additionalProperties: false })

/**
 * GET /__admin/clock reads the device's clock. POST {"advance": ms} moves a manual one on, and answers once the
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
      // A slice of timers per turn: 10,000 devices' schedules never hold a device's answer.
      await manual.clock.advanceInSteps((request.body as { advance: number }).advance, { turn: nextTurn })
      await manual.settled()
      return ok(reply, now())
    }
  }, { schema: { hide: true, body: ClockBodySchema } })
}
