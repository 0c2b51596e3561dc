import { EventEmitter } from 'node:events'
import t, { type Test } from 'tap'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RequestGate } from '../../src/wire/request-gate.js'
import { DeviceHealth, type HealthListener } from '../../src/health/device-health.js'
import { DeviceEvents } from '../../src/control/device-events.js'
import { ManualClock } from '../../src/util/clock.js'
import type { HealthPlan } from '../../src/health/health-spec.js'
import type { ApiError } from '../../src/wire/errors.js'
import { HealthSpecError } from '../../src/errors/errors.js'

const START = Date.parse('2030-01-01T00:00:00.000Z')
const at = (ms: number): string => new Date(START + ms).toISOString()

interface FakeListener extends HealthListener {
  calls: string[]
  refusing: boolean
  gate: RequestGate | null
  refusals: ApiError[]
}

function fakeListener (options: { refuse?: boolean } = {}): FakeListener {
  const listener: FakeListener = {
    calls: [],
    port: 4321,
    refusing: options.refuse ?? false,
    gate: null,
    refusals: [],
    stop: async () => { listener.calls.push('stop') },
    resume: async () => {
      listener.calls.push('resume')
      if (listener.refusing) throw Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' })
    },
    setGate: gate => { listener.gate = gate },
    refuse: (_request, _response, error) => { listener.refusals.push(error) }
  }
  return listener
}

function silentLog () {
  const lines: Array<[string, unknown, string]> = []
  const log = {
    info: (detail: unknown, message: string) => lines.push(['info', detail, message]),
    warn: (detail: unknown, message: string) => lines.push(['warn', detail, message])
  }
  return { log: log as never, lines }
}

function setup (t: Test, plan?: HealthPlan, listener = fakeListener()) {
  const clock = new ManualClock(START)
  const events = new DeviceEvents()
  const { log, lines } = silentLog()
  const health = new DeviceHealth({ clock, plan, log, events })
  health.begin(listener)
  t.teardown(() => health.stop())
  return { clock, events, health, listener, lines }
}

function fakeRequest (url = '/nvr/v1/cameras', method = 'GET') {
  const socket = { destroyed: false }
  const response = Object.assign(new EventEmitter(), { destroy () { socket.destroyed = true } }) as unknown as ServerResponse & EventEmitter
  return { request: { url, method } as IncomingMessage, response, socket }
}

/** What the gate did with a request: let it on now ('on'), took it ('taken'), or let it on later ('proceeded'). */
function passed (listener: FakeListener, url?: string, method?: string): { result: string } {
  const seen = { result: 'on' }
  const { request, response } = fakeRequest(url, method)
  if (listener.gate?.(request, response, () => { seen.result = 'proceeded' }) === true) seen.result = 'taken'
  return seen
}

t.test('changes within one advance that cancel out leave the port as it was', async t => {
  const { clock, health, listener } = setup(t, { pattern: 'flapping', up: 1000, down: 1000 })
  clock.advance(2000)
  await health.settled()
  t.strictSame(listener.calls, [])
  t.equal(health.listening, true)
})

t.test('a schedule is walked with the manual clock, the port closed and opened as it says', async t => {
  const { clock, health, listener, events } = setup(t, [{ at: 1000, state: 'offline', for: 2000 }, { at: 5000, state: 'rebooting', down: 1000, starting: 2000 }])
  t.equal(listener.gate, null, 'online: no gate, no cost')
  t.strictSame(health.report(), {
    state: 'online',
    since: at(0),
    until: at(1000),
    listening: true,
    next: [
      { state: 'offline', for: 2000, at: at(1000) },
      { state: 'online', at: at(3000) },
      { state: 'rebooting', down: 1000, starting: 2000, at: at(5000) },
      { state: 'online', at: at(8000) }
    ]
  })
  clock.advance(1000)
  await health.settled()
  t.strictSame(listener.calls, ['stop'])
  t.equal(health.listening, false)
  t.match(health.report(), { state: 'offline', since: at(1000), until: at(3000), listening: false })
  clock.advance(2000)
  await health.settled()
  t.strictSame(listener.calls, ['stop', 'resume'])
  clock.advance(2000)
  await health.settled()
  t.match(health.report(), { state: 'rebooting', phase: 'down', since: at(5000), until: at(6000), listening: false })
  clock.advance(1500)
  await health.settled()
  t.match(health.report(), { state: 'rebooting', phase: 'starting', since: at(6000), until: at(8000), listening: true })
  t.equal(passed(listener).result, 'taken')
  t.match(listener.refusals[0], { statusCode: 503, code: 'DEVICE_STARTING', headers: { 'retry-after': '2' } })
  clock.advance(1400)
  passed(listener)
  t.match(listener.refusals[1], { headers: { 'retry-after': '1' } })
  t.equal(passed(listener, '/nvr/v1/cameras', 'OPTIONS').result, 'on', 'a CORS preflight is answered')
  clock.advance(100)
  t.equal(listener.gate, null)
  t.strictSame(events.entries().map(event => event.kind === 'health' ? [event.time, event.state, event.phase] : event), [
    [at(1000), 'offline', undefined],
    [at(3000), 'online', undefined],
    [at(5000), 'rebooting', 'down'],
    [at(6000), 'rebooting', 'starting'],
    [at(8000), 'online', undefined]
  ])
})

t.test('a command holds for its `for`, then the schedule goes on', async t => {
  const { clock, health, events, listener } = setup(t, { pattern: 'flapping', up: 10_000, down: 10_000 })
  const report = health.set({ state: 'unreachable', for: 3000 })
  t.match(report, { state: 'unreachable', since: at(0), until: at(3000), next: [{ state: 'online', at: at(3000) }, { state: 'offline', at: at(10_000) }] })
  const { request, response, socket } = fakeRequest()
  t.ok(listener.gate?.(request, response, () => t.fail('held')))
  const admin = fakeRequest('/__admin/health')
  t.ok(listener.gate?.(admin.request, admin.response, () => t.fail('held')), 'the admin API is held too: its port is unreachable')
  admin.response.emit('close')
  clock.advance(3000)
  t.ok(socket.destroyed, 'a held connection is closed when the state ends')
  t.notOk(admin.socket.destroyed, 'one the client closed is let go')
  t.equal(listener.gate, null)
  t.match(health.report(), { state: 'online', since: at(0), until: at(10_000) })
  t.match(events.entries(), [{ state: 'unreachable', cause: 'command' }, { state: 'online', cause: 'schedule' }])
})

t.test('a command without `for` holds until the next; reset goes back to the start', async t => {
  const { clock, health, listener } = setup(t)
  health.set({ state: 'offline' })
  t.strictSame(health.report().next, [])
  clock.advance(1_000_000)
  await health.settled()
  t.equal(health.report().state, 'offline')
  t.strictSame(listener.calls, ['stop'])
  health.reset()
  await health.settled()
  t.strictSame(listener.calls, ['stop', 'resume'])
  t.match(health.report(), { state: 'online', listening: true, next: [] })
})

t.test('slow: each request waits its latency on the clock, growing over time up to its max', async t => {
  const { clock, health, listener } = setup(t)
  health.set({ state: 'slow', latency: 200, growth: { perMinute: 100, max: 250 } })
  const first = passed(listener)
  t.equal(first.result, 'taken')
  clock.advance(199)
  t.equal(first.result, 'taken')
  clock.advance(1)
  t.equal(first.result, 'proceeded')
  clock.advance(60_000 - 200)
  const later = passed(listener)
  clock.advance(249)
  t.equal(later.result, 'taken', 'a minute in: 300 ms, capped at 250')
  clock.advance(1)
  t.equal(later.result, 'proceeded')
  health.set({ state: 'slow', latency: 0 })
  t.equal(passed(listener).result, 'on', 'no latency, no wait')
})

t.test('a port taken while offline is logged, the device stays offline, and a later change tries again', async t => {
  const listener = fakeListener({ refuse: true })
  const { clock, health, events, lines } = setup(t, { pattern: 'flapping', up: 1000, down: 1000 }, listener)
  clock.advance(1000)
  await health.settled()
  clock.advance(1000)
  await health.settled()
  t.equal(health.listening, false)
  t.match(health.report(), { state: 'offline', listening: false, port: 4321, reason: 'port 4321 is in use by another program' }, 'never online while refusing')
  t.equal(health.state, 'offline', 'the state its metrics read says so too')
  t.match(events.entries().at(-1), { state: 'offline', cause: 'port-taken', port: 4321 })
  t.match(lines.at(-1), ['warn', { port: 4321, reason: 'port 4321 is in use by another program' }, 'port 4321 was taken while the device was offline: it stays offline until its next change'])
  listener.refusing = false
  clock.advance(1000)
  await health.settled()
  clock.advance(1000)
  await health.settled()
  t.equal(health.listening, true)
  t.notOk('reason' in health.report(), 'the reason goes once the port is back')
  t.strictSame(listener.calls, ['stop', 'resume', 'resume'], 'offline already: the next closing has nothing to do')
})

t.test('a reason without a code is its message', async t => {
  const listener = fakeListener()
  listener.resume = async () => { throw new Error('no such interface') }
  const { health, lines } = setup(t, undefined, listener)
  health.set({ state: 'offline' })
  await health.settled()
  health.set({ state: 'online' })
  await health.settled()
  t.match(lines.at(-1), ['warn', { reason: 'port 4321 cannot be listened on: no such interface' }])
  health.set({ state: 'offline' })
  await health.settled()
  t.notOk('reason' in health.report(), 'offline as asked: the port\'s reason is gone')
})

t.test('stop lets every waiting request go, cuts any new one, and changes nothing after', async t => {
  const { clock, health, listener } = setup(t)
  health.set({ state: 'slow', latency: 5000 })
  const waiting = passed(listener)
  health.set({ state: 'unreachable' })
  const { request, response, socket } = fakeRequest()
  listener.gate?.(request, response, () => t.fail('held'))
  await health.stop()
  t.equal(waiting.result, 'proceeded')
  t.ok(socket.destroyed)
  const late = fakeRequest()
  t.ok(listener.gate?.(late.request, late.response, () => t.fail('held')))
  t.ok(late.socket.destroyed, 'a request arriving while the device closes is cut')
  health.set({ state: 'offline' })
  clock.advance(10_000)
  await health.settled()
  t.strictSame(listener.calls, [])
})

t.test('an invalid command throws and changes nothing', async t => {
  const { health } = setup(t)
  t.throws(() => health.set({ state: 'offline', for: 0 }), HealthSpecError)
  t.equal(health.report().state, 'online')
})
