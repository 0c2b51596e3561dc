import t from 'tap'
import { FRACTION_FLAPPING, plansByFraction } from '../../src/health/fractions.js'
import { seedFor } from '../../src/util/random.js'

const names = Array.from({ length: 100 }, (_, index) => `nvr-${String(index + 1).padStart(3, '0')}`)

t.test('the fractions choose that share of devices, never one twice, by the seed alone', async t => {
  const plans = plansByFraction(names, 7, { offline: 0.1, flapping: 0.25 })
  const offline = [...plans].filter(([, plan]) => Array.isArray(plan))
  const flapping = [...plans].filter(([, plan]) => !Array.isArray(plan))
  t.equal(offline.length, 10)
  t.equal(flapping.length, 25)
  t.strictSame(offline[0]?.[1], [{ at: 0, state: 'offline' }])
  for (const [, plan] of flapping) {
    t.match(plan, { pattern: 'flapping', ...FRACTION_FLAPPING })
    const phase = (plan as { phase: number }).phase
    t.ok(phase >= 0 && phase < FRACTION_FLAPPING.up + FRACTION_FLAPPING.down)
  }
  t.strictSame([...plansByFraction([...names].reverse(), 7, { offline: 0.1, flapping: 0.25 })].sort(), [...plans].sort(), 'the order of the names does not matter')
  t.notSame([...plansByFraction(names, 8, { offline: 0.1 }).keys()].sort(), offline.map(([name]) => name).sort(), 'another seed chooses others')
  t.equal(plansByFraction(names, 7, {}).size, 0)
  t.equal(plansByFraction(['a', 'b'], 1, { offline: 1, flapping: 1 }).size, 2)
})

t.test('a seed of its own for each name', async t => {
  t.equal(seedFor(1, 'nvr-001'), seedFor(1, 'nvr-001'))
  t.not(seedFor(1, 'nvr-001'), seedFor(1, 'nvr-002'))
  t.not(seedFor(1, 'nvr-001'), seedFor(2, 'nvr-001'))
})
