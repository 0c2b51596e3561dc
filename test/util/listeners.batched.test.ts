import t from 'tap'
import { Listeners } from '../../src/util/listeners.js'

t.test('nobody listening costs a null; one listener is told directly; several each in turn', async t => {
  const listeners = new Listeners<[value: number]>()
  t.equal(listeners.tell, null)
  const told: string[] = []
  const first = (value: number) => { told.push(`first ${value}`) }
  const stopFirst = listeners.add(first)
  t.equal(listeners.tell, first, 'one listener is the teller itself')
  const stopSecond = listeners.add(value => { told.push(`second ${value}`) })
  listeners.tell?.(1)
  t.strictSame(told, ['first 1', 'second 1'])
  t.equal(listeners.size, 2)
  stopFirst()
  stopFirst()
  t.equal(listeners.size, 1, 'removing twice removes once')
  listeners.tell?.(2)
  t.strictSame(told.slice(2), ['second 2'])
  stopSecond()
  t.equal(listeners.tell, null)
})

t.test('a listener that leaves while being told does not make the next one missed', async t => {
  const listeners = new Listeners<[]>()
  const told: string[] = []
  const stopFirst = listeners.add(() => { told.push('first'); stopFirst() })
  listeners.add(() => { told.push('second') })
  listeners.tell?.()
  listeners.tell?.()
  t.strictSame(told, ['first', 'second', 'second'])
})
