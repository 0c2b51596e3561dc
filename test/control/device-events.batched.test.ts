import t from 'tap'
import { DeviceEvents } from '../../src/control/device-events.js'

t.test('the events keep the last ones, tell a listener of each, and clear', async t => {
  const events = new DeviceEvents(2)
  const told: string[] = []
  events.record({ kind: 'health', time: 'a', state: 'offline', cause: 'schedule' })
  events.listeners.add(event => { told.push(event.time) })
  events.record({ kind: 'data', time: 'b', edit: 'added', camera: 'cam-1', line: 'line-1' })
  events.record({ kind: 'health', time: 'c', state: 'offline', cause: 'port-taken', port: 8080 })
  t.strictSame(events.entries().map(event => event.time), ['b', 'c'])
  t.strictSame(told, ['b', 'c'])
  events.clear()
  t.strictSame(events.entries(), [])
  t.equal(new DeviceEvents().capacity, 200)
})
