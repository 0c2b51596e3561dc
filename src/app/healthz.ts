import { Type } from '@sinclair/typebox'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { healthErrorResponses } from '../openapi/response-schemas.js'
import type { TargetProxy } from '../target-proxy/target-proxy.js'
import type { DeviceRoster } from '../device/roster.js'

export const HEALTHZ_PATH = '/healthz'

/** A fleet's control address, whose /healthz counts the data of every device of the process that listens. */
export interface ControlHealth {
  /** Whether a request came to the control address. */
  isControl: (request: FastifyRequest) => boolean
  roster: DeviceRoster
}

/**
 * GET /healthz: liveness and readiness, without authentication, with the counts of the data served now: a
 * device's, or on a fleet's control address (`control`) those of its devices together.
 */
export function registerHealthz (app: FastifyInstance, proxy: TargetProxy | undefined, control?: ControlHealth): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(HEALTHZ_PATH, {
    schema: {
      operationId: 'checkHealth',
      summary: 'Liveness and readiness, without authentication',
      description: 'Answers 200 once the data is loaded and the server listens, with the counts of the data served now.',
      tags: ['Health'],
      security: [],
      response: {
        200: Type.Object({
          status: Type.Literal('ok'),
          cameras: Type.Integer(),
          countingLines: Type.Integer(),
          contractViolations: Type.Optional(Type.Integer({ description: 'When proxying the target: the violations its answers held so far' }))
        }, { description: 'Serving; the counts are of the data served now' }),
        ...healthErrorResponses
      }
    }
  }, function health (request) {
    if (control?.isControl(request) === true) return { status: 'ok' as const, ...fleetCounts(control.roster) }
    return { status: 'ok' as const, ...request.device.dataSummary(), ...(proxy === undefined ? {} : { contractViolations: proxy.violationCount }) }
  })
}

function fleetCounts ({ entries }: DeviceRoster): { cameras: number, countingLines: number } {
  let cameras = 0
  let countingLines = 0
  for (const { device } of entries) {
    const served = device.dataSummary()
    cameras += served.cameras
    countingLines += served.countingLines
  }
  return { cameras, countingLines }
}
