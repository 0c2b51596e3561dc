import t from 'tap'
import { parseHealthSpec, planOfHealth, problemsOfHealth } from '../../src/health/health-spec.js'
import { HealthSpecError } from '../../src/errors/errors.js'

function problems (fn: () => unknown): string[] {
  try {
    fn()
  } catch (error) {
    if (error instanceof HealthSpecError) return error.problems.map(({ path, message }) => `${path}: ${message}`)
    throw error
  }
  return []
}

t.test('each state takes its own fields', async t => {
  t.strictSame(parseHealthSpec({ state: 'online' }), { state: 'online' })
  t.strictSame(parseHealthSpec({ state: 'offline', for: 2000 }), { state: 'offline', for: 2000 })
  t.strictSame(parseHealthSpec({ state: 'rebooting', down: 2000, starting: 3000 }), { state: 'rebooting', down: 2000, starting: 3000 })
  t.strictSame(parseHealthSpec({ state: 'slow', latency: 300, growth: { perMinute: 100, max: 2000 } }), { state: 'slow', latency: 300, growth: { perMinute: 100, max: 2000 } })
})

t.test('impossible states are refused, naming the field', async t => {
  t.strictSame(problems(() => parseHealthSpec(null)), [': must be an object, not null'])
  t.strictSame(problems(() => parseHealthSpec({})), ['/state: is missing'])
  t.strictSame(problems(() => parseHealthSpec({ state: 'asleep' })), ['/state: must be one of "online", "offline", "unreachable", "rebooting", "slow", not "asleep"'])
  t.strictSame(problems(() => parseHealthSpec({ state: 'offline', for: -1 })), ['/for: must be a whole number from 1 to 2147483647, not -1'])
  t.strictSame(problems(() => parseHealthSpec({ state: 'rebooting', down: 10 })), ['/starting: is missing'])
  t.strictSame(problems(() => parseHealthSpec({ state: 'rebooting', down: 10, starting: 10, for: 5 })), ['/for: is not a known field'])
  t.strictSame(problems(() => parseHealthSpec({ state: 'slow', latency: 500, growth: { perMinute: 10, max: 100 } })), ['/growth/max: must be at least the latency (500), not 100'])
  t.match(new HealthSpecError([{ path: '/for', message: 'must be at least 1' }]).message, 'Invalid health: /for: must be at least 1')
})

t.test('a health takes a state, steps or a pattern; a state is the one step at 0', async t => {
  const steps = [{ at: 0, state: 'online' }, { at: 1000, state: 'offline', for: 500 }]
  for (const health of [steps, { state: 'slow', latency: 10 }, { pattern: 'flapping', up: 1000, down: 1000, phase: 500 }, { pattern: 'reboot', every: 60000, down: 2000, starting: 3000 }]) {
    t.strictSame(problemsOfHealth(health), [], JSON.stringify(health))
  }
  t.strictSame(planOfHealth({ state: 'slow', latency: 10 }), [{ at: 0, state: 'slow', latency: 10 }])
  t.strictSame(planOfHealth({ pattern: 'flapping', up: 1, down: 1 }), { pattern: 'flapping', up: 1, down: 1 })
})

t.test('impossible healths are refused, each problem under the path given', async t => {
  const refused = (health: unknown) => problemsOfHealth(health, '/health').map(({ path, message }) => `${path}: ${message}`)
  t.strictSame(refused(3), ['/health: must be a state ({ "state": "offline", … }), a list of steps ({ "at", "state", … }) or a pattern ({ "pattern": "flapping" | "reboot", … }), not 3'])
  t.strictSame(refused({}), ['/health/pattern: is missing'])
  t.strictSame(refused({ state: 'asleep' }), ['/health/state: must be one of "online", "offline", "unreachable", "rebooting", "slow", not "asleep"'])
  t.strictSame(refused({ pattern: 'wobble' }), ['/health/pattern: must be "flapping" or "reboot", not "wobble"'])
  t.strictSame(refused({ pattern: 'flapping', up: 0, down: 10 }), ['/health/up: must be a whole number from 1 to 2147483647, not 0'])
  t.strictSame(refused({ pattern: 'flapping', up: 10, down: 10, phase: 20 }), ['/health/phase: must be less than the cycle (20 ms), not 20'])
  t.strictSame(refused({ pattern: 'reboot', every: 1000, down: 600, starting: 400 }), ['/health/every: must be longer than down + starting (1000 ms), not 1000'])
  t.strictSame(refused([{ at: 0, state: 'offline' }, { at: 0, state: 'online' }, { state: 'slow' }]), ['/health/2/at: is missing', '/health/2/latency: is missing'])
  t.strictSame(refused([{ at: 10, state: 'offline' }, { at: 5, state: 'online' }]), ['/health/1/at: must come after the previous step\'s at (10), not 5'])
  t.strictSame(refused([{ at: -1, state: 'offline' }]), ['/health/0/at: must be a whole number from 0 to 2147483647, not -1'])
})
