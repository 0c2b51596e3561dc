import t from 'tap'
import { segmentAt, timeline } from '../../src/health/schedule.js'
import type { HealthPlan } from '../../src/health/health-spec.js'

t.test('no plan: online for good', async t => {
  t.strictSame(segmentAt(undefined, 5000), { spec: { state: 'online' }, start: 0 })
  t.strictSame(timeline(undefined, 0), [{ state: 'online', at: 0 }])
})

t.test('steps: online before the first, each until the next, a `for` ending early back to online', async t => {
  const plan: HealthPlan = [{ at: 1000, state: 'offline', for: 500 }, { at: 3000, state: 'slow', latency: 200 }, { at: 4000, state: 'rebooting', down: 100, starting: 100 }]
  t.strictSame(segmentAt(plan, 0), { spec: { state: 'online' }, start: 0, end: 1000 })
  t.strictSame(segmentAt(plan, 1200), { spec: { state: 'offline', for: 500 }, start: 1000, end: 1500 })
  t.strictSame(segmentAt(plan, 1500), { spec: { state: 'online' }, start: 1500, end: 3000 })
  t.strictSame(segmentAt(plan, 3500), { spec: { state: 'slow', latency: 200 }, start: 3000, end: 4000 })
  t.strictSame(segmentAt(plan, 4300), { spec: { state: 'online' }, start: 4200 })
  t.strictSame(timeline(plan, 0), [
    { state: 'online', at: 0 },
    { state: 'offline', for: 500, at: 1000 },
    { state: 'online', at: 1500 },
    { state: 'slow', latency: 200, at: 3000 },
    { state: 'rebooting', down: 100, starting: 100, at: 4000 },
    { state: 'online', at: 4200 }
  ])
  // A step whose `for` runs past the next step gives way to it.
  t.strictSame(segmentAt([{ at: 0, state: 'offline', for: 5000 }, { at: 1000, state: 'online' }], 500), { spec: { state: 'offline', for: 5000 }, start: 0, end: 1000 })
})

t.test('flapping: up, then down, from its phase', async t => {
  const plan: HealthPlan = { pattern: 'flapping', up: 1000, down: 500 }
  t.strictSame(timeline(plan, 0, { count: 5 }), [
    { state: 'online', at: 0 },
    { state: 'offline', at: 1000 },
    { state: 'online', at: 1500 },
    { state: 'offline', at: 2500 },
    { state: 'online', at: 3000 }
  ])
  t.strictSame(timeline({ pattern: 'flapping', up: 1000, down: 500, phase: 1200 }, 0, { count: 3 }), [
    { state: 'offline', at: 0 },
    { state: 'online', at: 300 },
    { state: 'offline', at: 1300 }
  ])
  t.strictSame(timeline({ pattern: 'flapping', up: 1000, down: 500, phase: 400 }, 0, { count: 2 }), [{ state: 'online', at: 0 }, { state: 'offline', at: 600 }])
  t.strictSame(timeline(plan, 1200, { until: 2600 }), [{ state: 'offline', at: 1200 }, { state: 'online', at: 1500 }, { state: 'offline', at: 2500 }])
})

t.test('reboot: every `every` ms from every − phase, down then starting, online in between', async t => {
  const reboot = { state: 'rebooting', down: 200, starting: 300 }
  t.strictSame(timeline({ pattern: 'reboot', every: 10000, down: 200, starting: 300 }, 0, { count: 4 }), [
    { state: 'online', at: 0 },
    { ...reboot, at: 10000 },
    { state: 'online', at: 10500 },
    { ...reboot, at: 20000 }
  ])
  t.strictSame(timeline({ pattern: 'reboot', every: 10000, down: 200, starting: 300, phase: 9900 }, 0, { count: 3 }), [
    { state: 'online', at: 0 },
    { ...reboot, at: 100 },
    { state: 'online', at: 600 }
  ])
  t.strictSame(segmentAt({ pattern: 'reboot', every: 10000, down: 200, starting: 300, phase: 9900 }, 50), { spec: { state: 'online' }, start: 0, end: 100 })
})

t.test('the same plan gives the same timeline from any point', async t => {
  const plan: HealthPlan = { pattern: 'flapping', up: 700, down: 300, phase: 123 }
  t.strictSame(timeline(plan, 5000, { count: 20 }), timeline(plan, 5000, { count: 20 }))
  const whole = timeline(plan, 0, { count: 30 })
  const later = timeline(plan, whole[10]!.at, { count: 5 })
  t.strictSame(later, whole.slice(10, 15))
})
