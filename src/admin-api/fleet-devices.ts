import type { FastifyInstance } from 'fastify'
import type { DeviceRoster, RosterEntry } from '../device/roster.js'
import { ok, route } from './routing.js'

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

/** GET /__admin/devices: every device of the fleet, as a tile of the dashboard shows it. */
export function registerDeviceList (fleet: FastifyInstance, roster: DeviceRoster): void {
  route(fleet, '/devices', {
    GET: (_request, reply) => ok(reply, { devices: roster.entries.map(listed) })
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
