import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { DeviceOf } from './device-of.js'
import type { SharedPortClock } from './device-health-rules.js'
import { SteppedAnswer, type Query } from './paging.js'
import { ok, route } from './routing.js'
import { VERB_TABLE, type VerbRow } from './verbs.js'

/**
 * A device's admin routes, made from the verb table: each path with the methods of its rows, a row's body checked
 * by its schema (unless the verb checks it in its own words), its verb carried out on the device the request names,
 * its line logged, and its content answered in the envelope.
 */
export function registerVerbRoutes (app: FastifyInstance, deviceOf: DeviceOf, sharedPortClock: SharedPortClock): void {
  const byPath = new Map<string, VerbRow[]>()
  for (const row of VERB_TABLE) {
    if (row.run === undefined) continue
    for (const path of row.paths ?? [row.call({}).path]) byPath.set(path, [...byPath.get(path) ?? [], row])
  }
  for (const [path, rows] of byPath) {
    // At most one verb of a path takes a body: its PUT or its POST.
    const withBody = rows.find(row => ['PUT', 'POST'].includes(row.call({}).method))
    const body = withBody === undefined || withBody.checksItsBody === true ? undefined : withBody.body ?? withBody.wrap?.schema
    route(app, path, Object.fromEntries(rows.map(row => [row.call({}).method, handlerOf(row, deviceOf, sharedPortClock)])), {
      ...(withBody?.bodyLimit === undefined ? {} : { bodyLimit: withBody.bodyLimit }),
      schema: { hide: true, ...(body === undefined ? {} : { body }) }
    })
  }
}

function handlerOf (row: VerbRow, deviceOf: DeviceOf, sharedPortClock: SharedPortClock): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
  const run = row.run as NonNullable<VerbRow['run']>
  return async function answerVerb (request, reply) {
    const input = { body: request.body, params: request.params as Record<string, string>, query: request.query as Query, sharedPortClock }
    const content = await run(deviceOf(request), input)
    if (content instanceof SteppedAnswer) return content.send(reply)
    const logged = row.logged?.(content, input)
    if (logged !== undefined) request.log.info(logged.fields ?? {}, logged.message)
    return ok(reply, content, row.status)
  }
}
