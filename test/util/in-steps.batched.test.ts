import t from 'tap'
import { setImmediate as turn } from 'node:timers/promises'
import { mapInSteps } from '../../src/util/in-steps.js'
import { ManualClock } from '../../src/util/clock.js'
import { Roster } from '../../src/device/roster.js'
import type { Device } from '../../src/device/device.js'

t.test('mapInSteps acts on every item in order, a slice per turn, and gives what each gave', async t => {
  let turns = 0
  const acted: number[] = []
  const results = await mapInSteps([1, 2, 3, 4, 5, 6, 7], async item => { acted.push(item); return item * 2 }, { perTurn: 3, turn: async () => { turns++ } })
  t.strictSame(results, [2, 4, 6, 8, 10, 12, 14])
  t.strictSame(acted, [1, 2, 3, 4, 5, 6, 7])
  t.equal(turns, 2)
  const touched: number[] = []
  await t.rejects(mapInSteps([1, 2, 3], item => { if (item === 2) throw new Error('no'); touched.push(item) }, { perTurn: 1, turn: async () => {} }), { message: 'no' })
  t.strictSame(touched, [1], 'a throw stops there')
  t.strictSame(await mapInSteps([], () => 1), [])
})

t.test('a roster resets its devices a slice per turn of the event loop, and every one of them', async t => {
  const reset: string[] = []
  let ranBetween: number | undefined
  const devices = Array.from({ length: 250 }, (_, index) => ({
    name: `d-${index}`,
    reset: async () => {
      // Scheduled by the first device: it runs between two slices, before the later devices are reset.
      if (index === 0) setImmediate(() => { ranBetween = reset.length })
      reset.push(`d-${index}`)
    },
    settled: async () => {}
  }))
  const roster = new Roster(devices as unknown as Device[])
  await roster.reset()
  t.equal(reset.length, 250, 'every device reset')
  t.ok(ranBetween !== undefined && ranBetween > 0 && ranBetween < 250, `the event loop turned after ${String(ranBetween)} devices`)
  await roster.settled()
})

t.test('a manual clock moved in steps runs the same timers in the same order as in one piece', async t => {
  const run = async (stepped: boolean) => {
    const clock = new ManualClock(0)
    const ran: string[] = []
    for (let index = 0; index < 50; index++) clock.setTimer(() => { ran.push(`a${index}@${clock.now()}`) }, (index * 7) % 13)
    // A timer set while the clock moves, due before the end, runs in the same move.
    clock.setTimer(() => { clock.setTimer(() => { ran.push(`late@${clock.now()}`) }, 2) }, 5)
    const cleared = clock.setTimer(() => { ran.push('cleared') }, 3)
    clock.clearTimer(cleared)
    clock.clearTimer(cleared)
    t.equal(clock.pending, 51)
    let turns = 0
    if (stepped) await clock.advanceInSteps(20, { perTurn: 4, turn: async () => { turns++ } })
    else clock.advance(20)
    t.equal(clock.now(), 20)
    t.equal(clock.pending, 0)
    return { ran, turns }
  }
  const whole = await run(false)
  const stepped = await run(true)
  t.strictSame(stepped.ran, whole.ran)
  t.equal(stepped.ran.length, 51)
  t.notOk(stepped.ran.includes('cleared'))
  t.equal(stepped.turns, 13, 'a turn every 4 timers')
})

t.test('moves of a manual clock asked at once run one after the other', async t => {
  const clock = new ManualClock(0)
  const ran: number[] = []
  for (let due = 1; due <= 10; due++) clock.setTimer(() => { ran.push(clock.now()) }, due)
  await Promise.all([clock.advanceInSteps(5, { perTurn: 1, turn }), clock.advanceInSteps(5, { perTurn: 1, turn })])
  t.strictSame(ran, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
  t.equal(clock.now(), 10)
  clock.setTimer(() => { throw new Error('broken') }, 1)
  await t.rejects(clock.advanceInSteps(1, { turn }), { message: 'broken' })
  await clock.advanceInSteps(1, { turn })
  t.equal(clock.now(), 12, 'a move that threw leaves the next ones free')
})

t.test('cleared timers leave a manual clock\'s heap once they are most of it', async t => {
  const clock = new ManualClock(0)
  const timers = Array.from({ length: 100 }, (_, index) => clock.setTimer(() => {}, 1000 + index))
  const kept = clock.setTimer(() => { t.pass('the one left runs') }, 10)
  for (const timer of timers) clock.clearTimer(timer)
  t.equal(clock.pending, 1)
  clock.advance(2000)
  t.equal(clock.pending, 0)
  clock.clearTimer(kept)
  t.equal(clock.pending, 0, 'clearing a timer that ran changes nothing')
})
