import type { FastifyInstance } from 'fastify'
import type { Device } from '../device/device.js'
import type { RequestJournal } from '../control/journal.js'
import type { DeviceOf } from './device-of.js'
import { answerWithStream, deviceSource, JournalStream, type JournalStreamLimits } from './journal-stream.js'
import { ok, route } from './routing.js'

/** /requests, /events and /requests/stream: what a device received, and what changed its health or data. */
export function registerJournalRoutes (app: FastifyInstance, deviceOf: DeviceOf, streamLimits?: Partial<JournalStreamLimits>): void {
  route(app, '/requests', {
    GET: (request, reply) => {
      const device = deviceOf(request)
      return ok(reply, { requests: device.requests(), total: device.journal.total, capacity: device.journal.capacity })
    },
    DELETE: (request, reply) => {
      deviceOf(request).resetRequests()
      return ok(reply, null)
    }
  })

  route(app, '/events', {
    GET: (request, reply) => ok(reply, deviceOf(request).events.entries())
  })

  // One stream per journal, made when it is first asked for; the device's changes of health and data go with it.
  const journalStreams = new Map<RequestJournal, JournalStream>()
  const journalStreamOf = ({ journal, events }: Device): JournalStream => {
    let stream = journalStreams.get(journal)
    if (stream === undefined) {
      stream = new JournalStream(deviceSource(journal, events), streamLimits)
      journalStreams.set(journal, stream)
    }
    return stream
  }
  app.addHook('preClose', function endJournalStreams (done) {
    for (const stream of journalStreams.values()) stream.closeAll()
    done()
  })
  route(app, '/requests/stream', {
    GET: (request, reply) => answerWithStream(reply, journalStreamOf(deviceOf(request)))
  })
}
