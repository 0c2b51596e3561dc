import type { FastifyInstance } from 'fastify'
import type { JournalEntry } from '../control/journal.js'
import type { DeviceRoster } from '../device/roster.js'
import { answerWithStream, fleetSource, JournalStream } from './journal-stream.js'
import { ok, route } from './routing.js'

/** A journal entry of a fleet: the device's name first. */
export type FleetJournalEntry = { device: string } & JournalEntry

/** Every device's journal as one, oldest first, each entry with its device's name. */
export function fleetJournal (roster: DeviceRoster): FleetJournalEntry[] {
  const entries = roster.entries.flatMap(({ device }) => device.requests().map(entry => ({ device: device.name, ...entry })))
  return entries.sort((a, b) => a.time.localeCompare(b.time))
}

/** /__admin/requests, /requests/stream and /events/stream: every device's requests and events, each naming its device. */
export function registerFleetJournal (fleet: FastifyInstance, roster: DeviceRoster): void {
  route(fleet, '/requests', {
    GET: (_request, reply) => {
      const total = roster.entries.reduce((sum, { device }) => sum + device.requestsTotal, 0)
      return ok(reply, { requests: fleetJournal(roster), total })
    },
    DELETE: (_request, reply) => {
      for (const { device } of roster.entries) device.resetRequests()
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
