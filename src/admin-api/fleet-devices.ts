import type { FastifyInstance } from 'fastify'
import type { DeviceRoster, RosterEntry } from '../device/roster.js'
import { apiErrors } from '../wire/errors.js'
import { limitOf, parameter, sendStepped, steppedEnvelope, type Query } from './paging.js'
import { route } from './routing.js'

/** A device as GET /__admin/devices lists it. */
export interface ListedDevice {
  name: string
  url: string
  cameras: string[]
  state: string
  /** Requests in its journal's count since the last clear, for a request rate. */
  requests: number
  /** How many faults are in force on it. */
  faults: number
}

/** Devices in a page of GET /__admin/devices unless `limit` says otherwise: a fleet of up to 1,000 is one page. */
export const DEVICES_LIMIT = 1000

/**
 * GET /__admin/devices: the devices of the fleet in order, as a tile of the dashboard shows them, a page at a time:
 * `limit` of them (1,000 by default) after the one `after` names, with `total` and `next`, the `after` of the next
 * page (null on the last). The page is written a slice of devices per turn of the event loop.
 */
export function registerDeviceList (fleet: FastifyInstance, roster: DeviceRoster): void {
  route(fleet, '/devices', {
    GET: (request, reply) => {
      const query = request.query as Query
      const limit = limitOf(query, DEVICES_LIMIT)
      const after = parameter(query, 'after')
      let at = 0
      if (after !== undefined) {
        const entry = roster.find(after)
        if (entry === undefined) throw apiErrors.invalidQuery('after', `must name a device of the fleet, and none is named ${JSON.stringify(after)}`)
        at = roster.entries.indexOf(entry) + 1
      }
      const entries = roster.entries
      const end = Math.min(entries.length, at + limit)
      return sendStepped(reply, () => steppedEnvelope('devices', () => at < end ? listed(entries[at++] as RosterEntry) : undefined, limit, () => ({
        total: entries.length,
        next: end < entries.length ? (entries[end - 1] as RosterEntry).device.name : null
      })))
    }
  })
}

function listed ({ device, url }: RosterEntry): ListedDevice {
  // Every device of a fleet has its health (start-mock-fleet.ts gives each its life).
  const health = device.health as NonNullable<typeof device.health>
  return { name: device.name, url, cameras: device.cameraIds(), state: stateOf(health.report()), requests: device.requestsTotal, faults: device.faults().length }
}

// "online", "offline", "rebooting (starting)", "offline (port taken)": what a tile shows.
function stateOf ({ state, phase, reason }: { state: string, phase?: string, reason?: string }): string {
  if (reason !== undefined) return 'offline (port taken)'
  return phase === undefined ? state : `${state} (${phase})`
}
