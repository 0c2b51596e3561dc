import t from 'tap'
import { ManualClock } from '../../src/util/clock.js'
import { RealClock } from '../../src/util/real-clock.js'

t.test('a manual clock runs the timers due, in the order they are due, at their own time', async t => {
  const clock = new ManualClock(1000)
  const seen: string[] = []
  clock.setTimer(() => seen.push(`b@${clock.now()}`), 20)
  clock.setTimer(() => seen.push(`a@${clock.now()}`), 10)
  clock.setTimer(() => seen.push(`c@${clock.now()}`), 20)
  const cleared = clock.setTimer(() => seen.push('never'), 5)
  clock.clearTimer(cleared)
  t.equal(clock.pending, 3)
  clock.advance(15)
  t.strictSame(seen, ['a@1010'])
  t.equal(clock.now(), 1015)
  clock.advance(100)
  t.strictSame(seen, ['a@1010', 'b@1020', 'c@1020'])
  t.equal(clock.now(), 1115)
  t.equal(clock.pending, 0)
})

t.test('a timer set by a timer runs in the same advance when it falls due in it', async t => {
  const clock = new ManualClock(0)
  const seen: number[] = []
  const tick = (): void => {
    seen.push(clock.now())
    clock.setTimer(tick, 10)
  }
  clock.setTimer(tick, 10)
  clock.advance(35)
  t.strictSame(seen, [10, 20, 30])
  t.equal(clock.pending, 1)
})

t.test('a negative wait runs at the next advance; the start defaults to now', async t => {
  const before = Date.now()
  const clock = new ManualClock()
  t.ok(clock.now() >= before)
  let ran = false
  clock.setTimer(() => { ran = true }, -5)
  clock.advance(0)
  t.ok(ran)
})

t.test('the real clock reads Date.now and its timers run and can be cleared', async t => {
  const clock = new RealClock()
  const before = Date.now()
  t.ok(clock.now() >= before)
  const cleared = clock.setTimer(() => t.fail('cleared'), 1)
  clock.clearTimer(cleared)
  t.ok(cleared.due >= before)
  await new Promise<void>(resolve => clock.setTimer(resolve, 1))
})
