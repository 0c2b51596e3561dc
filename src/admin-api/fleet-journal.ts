import type { FastifyInstance } from 'fastify'
import type { DeviceRoster } from '../device/roster.js'
import { answerWithStream, fleetSource, JournalStream } from './journal-stream.js'
import { FleetMerge, fleetPage, type FleetJournalEntry, type NamedJournal } from './journal-page.js'
import { sendStepped, steppedEnvelope, type Query } from './paging.js'
import { mapInSteps } from '../util/in-steps.js'
import { ok, route } from './routing.js'

export type { FleetJournalEntry }

const journalsOf = (roster: DeviceRoster): NamedJournal[] => roster.entries.map(({ device }) => ({ name: device.name, journal: device.journal }))

/** Every device's journal as one, in the order the answers ended, each entry with its device's name: the pages' order. */
export function fleetJournal (roster: DeviceRoster): FleetJournalEntry[] {
  const merge = new FleetMerge(journalsOf(roster))
  const entries: FleetJournalEntry[] = []
  for (let entry = merge.next(); entry !== undefined; entry = merge.next()) entries.push(entry)
  return entries
}

/** /__admin/requests, /requests/stream and /events/stream: every device's requests and events, each naming its device. */
export function registerFleetJournal (fleet: FastifyInstance, roster: DeviceRoster): void {
  route(fleet, '/requests', {
    // A page from `since`, `limit` entries at most, merged and written a slice per turn of the event loop.
    GET: (request, reply) => {
      const page = fleetPage(journalsOf(roster), request.query as Query, () => roster.entries.reduce((sum, { device }) => sum + device.requestsTotal, 0))
      return sendStepped(reply, () => steppedEnvelope('requests', page.next, page.limit, page.rest))
    },
    DELETE: async (_request, reply) => {
      await mapInSteps(roster.entries, ({ device }) => { device.resetRequests() })
      return ok(reply, null)
    }
  })

  // Every device's requests, health and data events, or its health and data events alone; each listened to only while open.
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
}
