import t from 'tap'
import { controlPortOf, planDevices, type FleetOptions } from '../../src/fleet/fleet-options.js'
import { deviceName, deviceSeed } from '../../src/fleet/device-names.js'
import { startMockFleet, startMockNvr } from '../../src/index.js'

t.test('devices are named nvr-001 …, and each generated device has a seed of its own, the same for the same name', async t => {
  t.strictSame([0, 1, 98, 999, 1000].map(deviceName), ['nvr-001', 'nvr-002', 'nvr-099', 'nvr-1000', 'nvr-1001'])
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

t.test('the control port is the fleet\'s port − 1, a free one under port 0, or the one given, never a device\'s', async t => {
  t.equal(controlPortOf({ port: 9000 }, planDevices({ count: 2, port: 9000 })), 8999)
  t.equal(controlPortOf({}, planDevices({ count: 2 })), 0)
  t.equal(controlPortOf({ port: 9000, controlPort: 7000 }, []), 7000)
  t.throws(() => controlPortOf({ port: 9000, controlPort: 9001 }, planDevices({ count: 2, port: 9000 })), { message: 'the control port 9001 is the port of device nvr-002 too: give --control-port another' })
})

t.test('options a fleet cannot start with are refused, naming the device where one is at fault', async t => {
  // What the types refuse (test/package/library-types.ts), a JavaScript caller may still pass.
  t.throws(() => planDevices({} as FleetOptions), { name: 'OptionsError', message: 'a fleet needs count or devices: how many devices, or which' })
  t.throws(() => planDevices({ count: 1, devices: [{ name: 'a' }] } as unknown as FleetOptions), { message: 'option count cannot be combined with option devices: give one' })
  t.throws(() => planDevices({ devices: [{ name: 'a' }, { name: 'a' }] }), { message: 'device a is named twice: each device needs a name of its own' })
  t.throws(() => planDevices({ count: 3, port: 65534 }), { message: 'device nvr-003 would listen on port 65536: the fleet\'s port plus 3 devices must stay within 65535' })
  t.throws(() => planDevices({ devices: [{ name: 'a', tokens: ['has space'] }] }), { message: /^device a: option tokens/ })
  t.throws(() => planDevices({ count: 3, offlineFraction: 2 }), { name: 'OptionsError', message: 'option offlineFraction must be a number from 0 to 1, not 2' })
  t.throws(() => planDevices({ count: 3, flappingFraction: Number.NaN }), { name: 'OptionsError', message: /^option flappingFraction must be a number from 0 to 1/ })
  t.throws(() => planDevices({ count: 3, offlineFraction: 0.6, flappingFraction: 0.6 }), { name: 'OptionsError', message: /add up to more than 1/ })
  await t.rejects(startMockNvr({ devices: 2 }), { name: 'OptionsError', message: 'option devices starts a fleet: call startMockFleet instead' })
  await t.rejects(startMockFleet({ count: 1, fixtures: '/no/such/folder' }), { name: 'FixtureError' })
})
