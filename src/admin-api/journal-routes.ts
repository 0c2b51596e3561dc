import type { FastifyInstance } from 'fastify'
import type { Device } from '../device/device.js'
import type { RequestJournal } from '../control/journal.js'
import type { DeviceOf } from './device-of.js'
import { answerWithStream, deviceSource, JournalStream, type JournalStreamLimits } from './journal-stream.js'
import { route } from './routing.js'

/** /requests/stream: what a device receives, and what changes its health or data, as server-sent events. */
export function registerJournalStream (app: FastifyInstance, deviceOf: DeviceOf, streamLimits?: Partial<JournalStreamLimits>): void {
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
