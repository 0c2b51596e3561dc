import t from 'tap'
import { controlPortOf, planDevices, type FleetOptions } from '../../src/fleet/fleet-options.js'
import { deviceName, deviceSeed } from '../../src/fleet/device-names.js'
import { startMockFleet, startMockNvr } from '../../src/index.js'
import { resolveOptions } from '../../src/config/options.js'

t.test('devices are named nvr-001 …, and each generated device has a seed of its own, the same for the same name', async t => {
  t.strictSame([0, 1, 98, 998].map(index => deviceName(index, 999)), ['nvr-001', 'nvr-002', 'nvr-099', 'nvr-999'], 'three digits under 1,000')
  t.strictSame([0, 98, 998, 999].map(index => deviceName(index, 1000)), ['nvr-0001', 'nvr-0099', 'nvr-0999', 'nvr-1000'], 'four at 1,000')
  t.strictSame([0, 9999].map(index => deviceName(index, 10000)), ['nvr-00001', 'nvr-10000'], 'five at 10,000')
  t.equal(deviceName(0, 1), 'nvr-001', 'three at least')
  t.equal(deviceSeed(1, 'nvr-001'), deviceSeed(1, 'nvr-001'))
  t.not(deviceSeed(1, 'nvr-001'), deviceSeed(1, 'nvr-002'))
  t.not(deviceSeed(1, 'nvr-001'), deviceSeed(2, 'nvr-001'))
  const plans = planDevices({ count: 2, port: 9000, generate: { cameras: 1, linesPerCamera: 1 } })
  t.strictSame(plans.map(plan => [plan.name, plan.options.port, plan.options.seed, plan.dataKey]), [
    ['nvr-001', 9000, deviceSeed(1, 'nvr-001'), 'generated:nvr-001'], ['nvr-002', 9001, deviceSeed(1, 'nvr-002'), 'generated:nvr-002']
  ])
  t.strictSame(planDevices({ devices: [{ name: 'a', fixtures: '/x' }, { name: 'b', seed: 4 }], data: {} }).map(plan => [plan.dataKey, plan.options.seed]), [['fixtures:/x', 1], ['data', 4]])
  t.equal(planDevices({ count: 1 })[0]?.dataKey, 'bundled')
})

t.test('a fleet\'s default names sort as text in the order of its devices, past 1,000 too', async t => {
  const names = planDevices({ count: 1001, port: 9000 }).map(plan => plan.name)
  t.strictSame([names[0], names[99], names[999], names[1000]], ['nvr-0001', 'nvr-0100', 'nvr-1000', 'nvr-1001'])
  t.strictSame(names.toSorted(), names, 'sorted as text, the same order')
  t.equal(planDevices({ count: 999, port: 9000 }).at(-1)?.name, 'nvr-999', 'under 1,000: three digits')
})

t.test('devices with the same settings are resolved once, to the options each would have alone', async t => {
  const shared = { port: 9000, tokens: ['site-token'], corsOrigins: ['https://app.example'], latency: { min: 5, max: 9 }, flappingFraction: 0.5 }
  const plans = planDevices({ ...shared, devices: [{ name: 'a' }, { name: 'b' }, { name: 'c', generate: '1x2' }, { name: 'd', generate: '1x2' }, { name: 'e', seed: 9 }, { name: 'f' }] })
  for (const [index, plan] of plans.entries()) {
    const { name, ...settings } = [{ name: 'a' }, { name: 'b' }, { name: 'c', generate: '1x2' }, { name: 'd', generate: '1x2' }, { name: 'e', seed: 9 }, { name: 'f' }][index] as { name: string }
    const generated = 'generate' in settings
    const alone = resolveOptions({ ...shared, flappingFraction: undefined, ...settings, port: 9000 + index, ...(plan.options.health === undefined ? {} : { health: plan.options.health }), seed: generated ? deviceSeed(1, name) : plan.options.seed })
    t.strictSame(plan.options, alone, `device ${name}`)
  }
  t.equal(new Set(plans.map(plan => plan.options.port)).size, 6, 'each its own port')
  t.equal(new Set(plans.map(plan => plan.options.seed)).size, 4, 'the generated ones each their own seed, e its own')
})

t.test('the control port is the fleet\'s port − 1, a free one under port 0, or the one given, never a device\'s', async t => {
  t.equal(controlPortOf({ port: 9000 }, planDevices({ count: 2, port: 9000 })), 8999)
  t.equal(controlPortOf({}, planDevices({ count: 2 })), 0)
  t.equal(controlPortOf({ port: 9000, controlPort: 7000 }, []), 7000)
  t.throws(() => controlPortOf({ port: 9000, controlPort: 9001 }, planDevices({ count: 2, port: 9000 })), { message: 'the control port 9001 is also the port of device nvr-002: the control address needs a port that no device listens on' })
})

t.test('options a fleet cannot start with are refused, naming the device where one is at fault', async t => {
  // What the types refuse (test/package/library-types.ts), a JavaScript caller may still pass.
  t.throws(() => planDevices({} as FleetOptions), { name: 'OptionsError', message: 'a fleet needs count or devices: how many devices, or which' })
  t.throws(() => planDevices({ count: 1, devices: [{ name: 'a' }] } as unknown as FleetOptions), { message: 'option count cannot be combined with option devices: give one' })
  t.throws(() => planDevices({ devices: [{ name: 'a' }, { name: 'a' }] }), { message: 'option devices[1].name is "a", the name of devices[0] too: each device needs a name of its own' })
  t.throws(() => planDevices({ count: 3, port: 65534 }), { message: 'option port 65534 with option count 3 would put the last device on port 65536: a fleet\'s ports must stay within 65535, so from port 65534 at most 2 devices' })
  t.throws(() => planDevices({ devices: [{ name: 'a', tokens: ['has space'] }] }), { message: 'option devices[0].tokens[0] must be one word of visible ASCII characters (no spaces, no letters like ö or é)' })
  t.throws(() => planDevices({ devices: [{ name: 'a' }], adminToken: 'x', tokens: ['x'] }), { message: /^the same token cannot be both option adminToken and option tokens/ }, 'the shared options are checked as startMockNvr checks them')
  t.throws(() => planDevices({ devices: [{ name: 'a', tokens: ['x'] }], adminToken: 'x' }), { message: 'device a: the same token cannot be both option adminToken and option tokens: the admin token must never open the device API' })
  t.throws(() => planDevices({ devices: [{ name: 'a', latency: 5 }], adminToken: 'x' }).map(plan => resolveOptions({ ...plan.options, tokens: ['x'] })), { message: /the same token cannot be both/ })
  t.throws(() => planDevices({ count: 3, offlineFraction: 2 }), { name: 'OptionsError', message: 'option offlineFraction must be a number from 0 to 1, not 2' })
  t.throws(() => planDevices({ count: 3, flappingFraction: Number.NaN }), { name: 'OptionsError', message: /^option flappingFraction must be a number from 0 to 1/ })
  t.throws(() => planDevices({ count: 3, offlineFraction: 0.6, flappingFraction: 0.6 }), { name: 'OptionsError', message: /add up to more than 1/ })
  await t.rejects(startMockNvr({ devices: 2 }), { name: 'OptionsError', message: 'option devices starts a fleet: call startMockFleet instead' })
  await t.rejects(startMockFleet({ count: 1, fixtures: '/no/such/folder' }), { name: 'FixtureError' })
})

t.test('startMockFleet refuses every name the CLI and a fleet file refuse, in the same words, all at once', async t => {
  const rule = "must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit (it is a path segment of the admin API)"
  const names = ['', 'a b/ü', 'x'.repeat(200), '__proto__']
  t.throws(() => planDevices({ devices: names.map(name => ({ name })) }), {
    name: 'OptionsError',
    // A value quoted is cut at 60 characters, so the line stays one short line.
    message: names.map((name, index) => `option devices[${index}].name ${rule}, not ${JSON.stringify(name).slice(0, 60)}${name.length > 60 ? '…' : ''}`).join('\n')
  })
  await t.rejects(startMockFleet({ devices: [{ name: '__proto__' }] }), { name: 'OptionsError', message: `option devices[0].name ${rule}, not "__proto__"` })
})

t.test('a count out of range is named as the count, not as a missing one', async t => {
  t.throws(() => planDevices({ count: 0 }), { name: 'OptionsError', message: 'option count must be a whole number from 1 to 20000, not 0' })
  t.throws(() => planDevices({ count: 1.5 }), { name: 'OptionsError', message: 'option count must be a whole number from 1 to 20000, not 1.5' })
  t.throws(() => planDevices({ devices: [] }), { name: 'OptionsError', message: 'option devices must list at least 1 device' })
})

t.test('every problem of the devices is reported at once, each named by its path', async t => {
  t.throws(() => planDevices({ devices: [{ name: 'p', latency: { min: 800, max: 100 } }, { name: 'q', rateLimit: 0, colour: 'red' } as never, { name: 'r', generate: '3y4', health: { state: 'asleep' } as never }] }), {
    message: [
      'option devices[1].colour is not a known field',
      'option devices[1].rateLimit must be a whole number from 1 to 1000000, not 0',
      'option devices[0].latency must go from low to high, not from 800 to 100',
      "option devices[2].generate must be CAMERASxLINES, e.g. 100x20, not '3y4'",
      'option devices[2].health.state must be one of "online", "offline", "unreachable", "rebooting", "slow"'
    ].join('\n')
  })
})

t.test('devices that are not a list of objects are refused, not read', async t => {
  t.throws(() => planDevices({ devices: 'a' } as never), { message: 'option devices must be an array' }, 'a string where tokens may go is never quoted')
  t.throws(() => planDevices({ devices: [null] } as never), { message: 'option devices[0] must be an object, not null' })
})
