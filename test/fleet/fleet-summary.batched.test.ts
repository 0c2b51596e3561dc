import t from 'tap'
import { FleetSummary, SUMMARY_MESSAGE, type SummarizedDevice } from '../../src/fleet/fleet-summary.js'
import { RequestCounts } from '../../src/control/request-counts.js'
import { ManualClock } from '../../src/util/clock.js'
import { RealClock } from '../../src/util/real-clock.js'

function fleetOf (count: number): Array<SummarizedDevice & { healthState: string }> {
  return Array.from({ length: count }, () => ({ counts: new RequestCounts(), healthState: 'online' }))
}

const answer = (device: SummarizedDevice, status: number) => device.counts.count({ method: 'GET', url: '/nvr/v1/cameras/c/counting_lines', params: { id: 'c' } }, status, 0.1)

t.test('each tick of the clock writes the second\'s requests by status and the devices by health, only when something happened', async t => {
  const clock = new ManualClock(0)
  const lines: Array<[object, string]> = []
  const devices = fleetOf(3)
  const summary = new FleetSummary(devices, clock, { info: (fields, message) => lines.push([fields, message]) })
  summary.start()
  t.equal(clock.pending, 0, 'a background timer is not a pending wait')
  answer(devices[0] as SummarizedDevice, 200)
  answer(devices[1] as SummarizedDevice, 200)
  answer(devices[1] as SummarizedDevice, 0)
  clock.advance(999)
  t.equal(lines.length, 0)
  clock.advance(1)
  t.strictSame(lines, [[{ requests: 3, statuses: { 200: 2, dropped: 1 }, devices: { online: 3 } }, SUMMARY_MESSAGE]])
  clock.advance(3000)
  t.equal(lines.length, 1, 'quiet seconds write nothing')
  ;(devices[2] as { healthState: string }).healthState = 'rebooting'
  clock.advance(1000)
  t.strictSame(lines[1], [{ requests: 0, statuses: {}, devices: { online: 2, rebooting: 1 } }, SUMMARY_MESSAGE])
  summary.stop()
  summary.stop()
  answer(devices[0] as SummarizedDevice, 503)
  clock.advance(5000)
  t.equal(lines.length, 2, 'nothing once stopped')
})

t.test('nothing is written when the log is above info, and the counts still move on', async t => {
  const clock = new ManualClock(0)
  const lines: object[] = []
  const devices = fleetOf(1)
  let level = 'warn'
  const summary = new FleetSummary(devices, clock, { info: fields => lines.push(fields), isLevelEnabled: asked => asked !== 'info' || level === 'info' })
  summary.start()
  answer(devices[0] as SummarizedDevice, 200)
  clock.advance(1000)
  level = 'info'
  answer(devices[0] as SummarizedDevice, 404)
  clock.advance(1000)
  t.strictSame(lines, [{ requests: 1, statuses: { 404: 1 }, devices: { online: 1 } }])
  summary.stop()
})

t.test('on the real clock the summary\'s timer holds the process open no longer than its fleet', async t => {
  const clock = new RealClock()
  const summary = new FleetSummary(fleetOf(1), clock, { info: () => {} })
  summary.start()
  const timer = clock.setTimer(() => {}, 1000, true)
  t.equal((timer as unknown as { handle: NodeJS.Timeout }).handle.hasRef(), false, 'a background timer is unref\'d')
  clock.clearTimer(timer)
  summary.stop()
})
