import type { FastifyInstance } from 'fastify'
import type { MockControl } from '../control/mock-control.js'
import type { RequestJournal } from '../control/journal.js'
import type { DeviceOf } from './device-of.js'
import { answerWithStream, deviceSource, JournalStream, type JournalStreamLimits } from './journal-stream.js'
import { ok, route } from './routing.js'

/** /requests, /events and /requests/stream: what a device received, and what changed its health or data. */
export function registerJournalRoutes (app: FastifyInstance, deviceOf: DeviceOf, streamLimits?: Partial<JournalStreamLimits>): void {
  route(app, '/requests', {
    GET: (request, reply) => {
      const { control } = deviceOf(request)
      return ok(reply, { requests: control.requests(), total: control.journal.total, capacity: control.journal.capacity })
    },
    DELETE: (request, reply) => {
      deviceOf(request).control.resetRequests()
      return ok(reply, null)
    }
  })

  route(app, '/events', {
    GET: (request, reply) => ok(reply, deviceOf(request).control.events.entries())
  })

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
    GET: (request, reply) => answerWithStream(reply, journalStreamOf(deviceOf(request).control))
  })
}
