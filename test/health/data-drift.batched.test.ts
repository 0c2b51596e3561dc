import t, { type Test } from 'tap'
import { RealClock } from '../../src/util/real-clock.js'
import { DataDrift } from '../../src/health/data-drift.js'
import { DeviceEvents } from '../../src/control/device-events.js'
import { Device } from '../../src/device/device.js'
import { TokenPolicy } from '../../src/wire/token-policy.js'
import { CorsPolicy } from '../../src/wire/cors.js'
import { DataStore } from '../../src/data/data-store.js'
import { datasetFromData } from '../../src/data/dataset.js'
import { ManualClock } from '../../src/util/clock.js'
import { line } from '../helpers/app.js'

const START = Date.parse('2030-01-01T00:00:00.000Z')

function setup (t: Test, data: unknown, seed = 5) {
  const store = new DataStore(datasetFromData(data))
  const control = new Device({ name: 'nvr', clock: new RealClock(), store, tokens: new TokenPolicy([]), cors: new CorsPolicy() })
  const clock = new ManualClock(START)
  const events = new DeviceEvents()
  const logged: string[] = []
  const log = { info: (_: unknown, message: string) => logged.push(message) } as never
  const drift = new DataDrift({ clock, every: 60_000, seed, device: control, events, log })
  t.teardown(() => drift.stop())
  return { store, control, clock, events, drift, logged }
}

const DATA = { cameras: [{ id: 'cam-1' }], counting_lines: [line({ counting_line: 'LINESTRING(10 10, 500 10)', anchor: 'POINT(200 40)' }), line({ id: 'line-2' })] }

t.test('every `every` ms the served data is edited, its prepared answers with it, and each edit is recorded', async t => {
  const { store, clock, events, logged } = setup(t, DATA)
  const before = store.current
  clock.advance(59_999)
  t.equal(store.current, before, 'nothing before the first period')
  clock.advance(1)
  t.not(store.current, before, 'the prepared data was replaced')
  t.equal(events.entries().length, 1)
  const [edit] = events.entries()
  t.match(edit, { kind: 'data', time: '2030-01-01T00:01:00.000Z', camera: 'cam-1' })
  t.match(logged[0], /^drift: line .+ of camera cam-1 (renamed|moved|added|removed)$/)
  clock.advance(60_000 * 5)
  t.equal(events.entries().length, 6)
  t.strictSame(events.entries().map(event => event.time), [1, 2, 3, 4, 5, 6].map(minute => new Date(START + minute * 60_000).toISOString()))
})

t.test('the same seed edits the same way; reset starts the sequence again', async t => {
  const first = setup(t, DATA, 9)
  const second = setup(t, DATA, 9)
  first.clock.advance(300_000)
  second.clock.advance(300_000)
  t.strictSame(first.control.data(), second.control.data())
  const editsBefore = first.events.entries().map(({ time, ...edit }) => edit)
  first.control.reset()
  first.events.clear()
  first.drift.reset()
  first.clock.advance(300_000)
  t.strictSame(first.events.entries().map(({ time, ...edit }) => edit), editsBefore)
})

t.test('a device with no camera has nothing to edit, and keeps waiting', async t => {
  const { clock, events } = setup(t, { cameras: [], counting_lines: [] })
  clock.advance(180_000)
  t.strictSame(events.entries(), [])
  t.equal(clock.pending, 1)
})

t.test('an edit the data refuses is skipped and logged, nothing recorded, and drift goes on', async t => {
  const store = new DataStore(datasetFromData(DATA))
  const clock = new ManualClock(START)
  const events = new DeviceEvents()
  const errors: string[] = []
  const log = { info: () => {}, error: (message: string) => errors.push(message) } as never
  let refusals = 1
  const real = new Device({ name: 'nvr', clock: new RealClock(), store, tokens: new TokenPolicy([]), cors: new CorsPolicy() })
  const control = {
    get dataset () { return store.current.dataset },
    use: (data: unknown, source: string) => {
      if (refusals-- > 0) throw new Error('Invalid fixtures: /counting_lines/0/name: is missing')
      return real.use(data, source)
    }
  }
  const drift = new DataDrift({ clock, every: 60_000, seed: 5, device: control, events, log })
  t.teardown(() => drift.stop())
  const before = store.current
  clock.advance(60_000)
  t.strictSame(errors, ['drift: an edit was refused: Invalid fixtures: /counting_lines/0/name: is missing'])
  t.equal(store.current, before, 'the data as it was')
  t.strictSame(events.entries(), [], 'no edit recorded')
  t.equal(clock.pending, 1, 'the next edit is due')
  clock.advance(60_000)
  t.equal(events.entries().length, 1, 'the next one is made')
  t.not(store.current, before)
})
