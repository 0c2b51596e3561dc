import type { FastifyInstance } from 'fastify'
import { guardAdminArea, ok, invalidBody, route } from './routing.js'
import { adminApi, registerClock, type HandClock } from './routes.js'
import type { TokenPolicy } from '../wire/token-policy.js'
import { refuseUnknownPaths } from '../wire/method-not-allowed.js'
import { apiErrors } from '../wire/errors.js'
import { ADMIN_PREFIX } from '../contract/paths.js'
import { FaultSpecSchema, type InvalidFaultError } from '../control/faults/fault-spec.js'
import type { DeviceRoster, RosterEntry } from '../device/roster.js'
import type { JournalEntry } from '../control/journal.js'
import { answerWithStream, fleetSource, JournalStream } from './journal-stream.js'

/** What a fleet's admin API needs: its devices. */
export interface FleetAdmin {
  roster: DeviceRoster
  /** The devices' schedules' clock, when moved by hand at POST /__admin/clock; the real one when absent. */
  manualClock?: HandClock
}

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

/** A journal entry of a fleet: the device's name first. */
export type FleetJournalEntry = { device: string } & JournalEntry

/**
 * A fleet's admin API on its control address: the list of devices, verbs on every device at once under
 * /__admin, and each device's own admin API (the single mock-nvr's, unchanged) under /__admin/devices/{name}.
 */
export async function registerFleetAdmin (app: FastifyInstance, tokens: TokenPolicy, { roster, manualClock }: FleetAdmin): Promise<void> {
  await app.register(async function fleetAdmin (fleet) {
    guardAdminArea(fleet, tokens)
    const each = (act: (entry: RosterEntry) => void) => { for (const entry of roster.entries) act(entry) }

    route(fleet, '/devices', {
      GET: (_request, reply) => ok(reply, { devices: roster.entries.map(listed) })
    })

    route(fleet, '/faults', {
      GET: (_request, reply) => ok(reply, roster.entries.flatMap(({ device }) => device.control.faults().map(fault => ({ device: device.name, ...fault })))),
      POST: (request, reply) => {
        const faults = injectEverywhere(roster, request.body)
        request.log.info({ devices: faults.length }, 'admin: a fault injected on every device')
        return ok(reply, faults, 201)
      },
      DELETE: (request, reply) => {
        each(({ device }) => device.control.clearFaults())
        request.log.info('admin: every fault of every device cleared')
        return ok(reply, null)
      }
    }, { schema: { hide: true, body: FaultSpecSchema } })

    route(fleet, '/requests', {
      GET: (_request, reply) => {
        const requests = fleetJournal(roster)
        return ok(reply, { requests, total: roster.entries.reduce((sum, { device }) => sum + device.control.journal.total, 0) })
      },
      DELETE: (_request, reply) => {
        each(({ device }) => device.control.resetRequests())
        return ok(reply, null)
      }
    })

    // Every device's requests, health and data events, each naming its device, or its health and data events alone;
    // each listened to only while open.
    const fleetStream = new JournalStream(fleetSource(roster))
    const eventStream = new JournalStream(fleetSource(roster, { requests: false }))
    fleet.addHook('preClose', function endFleetStreams (done) {
      fleetStream.closeAll()
      eventStream.closeAll()
      done()
    })
    route(fleet, '/requests/stream', {
      GET: (_request, reply) => answerWithStream(reply, fleetStream)
    })
    route(fleet, '/events/stream', {
      GET: (_request, reply) => answerWithStream(reply, eventStream)
    })

    route(fleet, '/reset', {
      POST: async (request, reply) => {
        await roster.reset()
        request.log.info('admin: every device reset to its start-up data, no faults, an empty journal')
        return ok(reply, null)
      }
    })

    // One clock for every device: the real one, or the manual one POST /__admin/clock moves.
    registerClock(fleet, manualClock)

    await fleet.register(async function deviceAdmin (device) {
      // What is logged of a device's admin call names the device, as its requests' lines do.
      device.addHook('onRequest', function nameTheDevice (request, _reply, done) {
        request.log = request.log.child({ device: (request.params as { name: string }).name })
        done()
      })
      await device.register(adminApi, {
        tokens,
        ownsClock: false,
        deviceOf: request => {
          const { name } = request.params as { name: string }
          const entry = roster.find(name)
          if (entry === undefined) throw apiErrors.deviceNotFound(name)
          return entry.device
        }
      })
    }, { prefix: '/devices/:name' })
    refuseUnknownPaths(fleet)
  }, { prefix: ADMIN_PREFIX })
}

function listed ({ device, url }: RosterEntry): ListedDevice {
  // Every device of a fleet has its health (start-mock-fleet.ts gives each its life).
  const health = device.health as NonNullable<typeof device.health>
  return { name: device.name, url, cameras: [...device.store.current.dataset.cameraIds], state: stateOf(health.report()), requests: device.control.journal.total, faults: device.control.faults().length }
}

// Checked once on the first device: a spec refused there is refused everywhere, and nothing changed.
function injectEverywhere (roster: DeviceRoster, body: unknown) {
  try {
    return roster.entries.map(({ device }) => ({ device: device.name, ...device.control.injectFault(body as never) }))
  } catch (error) {
    throw invalidBody((error as InvalidFaultError).problems)
  }
}

/** Every device's journal as one, oldest first, each entry with its device's name. */
export function fleetJournal (roster: DeviceRoster): FleetJournalEntry[] {
  const entries = roster.entries.flatMap(({ device }) => device.control.requests().map(entry => ({ device: device.name, ...entry })))
  return entries.sort((a, b) => a.time.localeCompare(b.time))
}

// "online", "offline", "rebooting (starting)", "offline (port taken)": what a tile shows.
function stateOf ({ state, phase, reason }: { state: string, phase?: string, reason?: string }): string {
  if (reason !== undefined) return 'offline (port taken)'
  return phase === undefined ? state : `${state} (${phase})`
}
