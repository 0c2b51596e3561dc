import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { planDevices, type FleetOptions } from '../../src/fleet/fleet-options.js'
import { shardRange } from '../../src/config/shard.js'
import { parseCli } from '../../src/cli/args.js'
import { startMockFleet, startMockNvr } from '../../src/index.js'
import { runCommand } from '../helpers/cli-process.js'
import { SAMPLE_DATA } from '../helpers/app.js'
import { ADMIN, ADMIN_TOKEN } from '../helpers/control.js'
import { thrown } from '../helpers/thrown.js'

t.test('slices are contiguous, in order, as even as they can be, and cover the fleet once', async t => {
  t.strictSame([1, 2, 3].map(index => shardRange({ index, count: 3 }, 10)), [{ start: 0, end: 4 }, { start: 4, end: 7 }, { start: 7, end: 10 }])
  t.strictSame(shardRange({ index: 1, count: 1 }, 5), { start: 0, end: 5 })
  for (let devices = 1; devices <= 24; devices++) {
    for (let count = 1; count <= devices; count++) {
      const ranges = Array.from({ length: count }, (_, index) => shardRange({ index: index + 1, count }, devices))
      const sizes = ranges.map(({ start, end }) => end - start)
      t.ok(ranges.every((range, index) => range.start === (ranges[index - 1]?.end ?? 0)), `${devices} devices in ${count}: each slice starts where the last ended`)
      t.equal(ranges.at(-1)?.end, devices)
      t.ok(Math.max(...sizes) - Math.min(...sizes) <= 1 && Math.min(...sizes) >= 1, `${devices} devices in ${count}: sizes ${sizes.join(',')}`)
    }
  }
})

t.test('the shards of a fleet plan exactly its devices: names, ports, seeds, data and health chosen over the whole fleet', async t => {
  const fleets: FleetOptions[] = [
    { count: 10, port: 9000, generate: '2x2', seed: 5, offlineFraction: 0.2, flappingFraction: 0.3 },
    { devices: [{ name: 'lobby', port: 9100 }, { name: 'gate', generate: '1x3' }, { name: 'dock', seed: 4 }, { name: 'roof', health: { state: 'offline' } }, { name: 'yard' }], port: 9000, offlineFraction: 0.25 }
  ]
  for (const fleet of fleets) {
    const whole = planDevices(fleet)
    for (const count of [1, 2, 3, 5]) {
      const union = Array.from({ length: count }, (_, index) => planDevices({ ...fleet, shard: `${index + 1}/${count}` })).flat()
      t.strictSame(union, whole, `${whole.length} devices in ${count} shards`)
    }
  }
  t.strictSame(planDevices({ count: 10, port: 9000, shard: '2/3' }).map(plan => [plan.name, plan.options.port]), [['nvr-005', 9004], ['nvr-006', 9005], ['nvr-007', 9006]])
})

t.test('the library refuses the shards the CLI refuses, in the same words', async t => {
  for (const value of ['0/3', '4/3', 'a/b', '1/0', '1/-1', '3']) {
    const cli = thrown(() => parseCli(['--devices', '3', '--shard', value], {}))
    t.ok(cli.startsWith('--shard must be K/N'), cli)
    t.equal(thrown(() => planDevices({ count: 3, shard: value })), cli.replace('--shard', 'option shard').replace(`'${value}'`, JSON.stringify(value)), value)
  }
  t.equal(thrown(() => planDevices({ count: 3, shard: '' })), 'option shard must be K/N, the K-th of N slices of the fleet\'s devices, like 2/3, not ""')
  t.equal(thrown(() => planDevices({ count: 3, shard: 2 as never })), 'option shard must be a string, not 2')
  await t.rejects(startMockFleet({ count: 3, shard: '0/3' }), { name: 'OptionsError', message: 'option shard must be K/N with K from 1 to N, not "0/3"' })
  await t.rejects(startMockNvr({ shard: '1/2' } as never), { name: 'OptionsError', message: 'option shard starts a fleet: call startMockFleet instead' })
})

t.test('more slices than devices are refused, naming the shard and what counts the devices', async t => {
  t.equal(thrown(() => planDevices({ count: 2, shard: '3/3' })), 'option shard 3/3 needs at least 3 devices, one per slice, but option count gives 2')
  t.equal(thrown(() => planDevices({ devices: [{ name: 'a' }], shard: '1/2' })), 'option shard 1/2 needs at least 2 devices, one per slice, but option devices gives 1')
  t.equal(thrown(() => parseCli(['--devices', '2', '--shard', '3/3'], {})), '--shard 3/3 needs at least 3 devices, one per slice, but --devices gives 2')
  t.equal(thrown(() => parseCli([], { MOCK_NVR_DEVICES: '2', MOCK_NVR_SHARD: '1/5' })), 'MOCK_NVR_SHARD 1/5 needs at least 5 devices, one per slice, but MOCK_NVR_DEVICES gives 2')
  const dir = t.testdir({ 'fleet.json': JSON.stringify({ devices: [{ name: 'a' }, { name: 'b' }] }) })
  const file = join(dir, 'fleet.json')
  t.strictSame(await runCommand(['--fleet', file, '--shard', '3/3']), { code: 1, stdout: '', stderr: `mock-nvr: --shard 3/3 needs at least 3 devices, one per slice, but ${file} gives 2\n` })
  t.equal((await runCommand(['--fleet', file], { MOCK_NVR_SHARD: '1/3' })).stderr, `mock-nvr: MOCK_NVR_SHARD 1/3 needs at least 3 devices, one per slice, but ${file} gives 2\n`)
})

t.test('a bad shard is a usage error on one line, naming the flag or its variable, exit code 2', async t => {
  t.strictSame(await runCommand(['--devices', '3', '--shard', '4/3']), { code: 2, stdout: '', stderr: "mock-nvr: --shard must be K/N with K from 1 to N, not '4/3'. Run mock-nvr --help for the flags.\n" })
  t.strictSame(await runCommand(['--devices', '3'], { MOCK_NVR_SHARD: 'a/b' }), {
    code: 2,
    stdout: '',
    stderr: "mock-nvr: MOCK_NVR_SHARD must be K/N, the K-th of N slices of the fleet's devices, like 2/3, not 'a/b'. Run mock-nvr --help for the flags.\n"
  })
  t.equal((await runCommand(['--shard', '1/3'])).stderr, 'mock-nvr: --shard applies to a fleet only: give --devices too. Run mock-nvr --help for the flags.\n')
})

t.test('a shard started from code serves, lists and writes down its own devices alone', async t => {
  const manifest = join(t.testdir(), 'devices.json')
  const fleet = await startMockFleet({ count: 5, shard: '2/2', data: SAMPLE_DATA, adminToken: ADMIN_TOKEN, manifest })
  t.teardown(() => fleet.close())
  t.strictSame(fleet.devices.map(device => device.name), ['nvr-004', 'nvr-005'])
  t.equal(fleet.device('nvr-001'), undefined)
  const listed = (await (await fetch(`${fleet.controlUrl}/__admin/devices`, { headers: ADMIN })).json() as { content: { devices: Array<{ name: string, url: string }> } }).content.devices
  t.strictSame(listed.map(device => [device.name, device.url]), fleet.devices.map(device => [device.name, device.url]))
  const written = JSON.parse(await readFile(manifest, 'utf8')) as { devices: Array<{ name: string }> }
  t.strictSame(written.devices.map(device => device.name), ['nvr-004', 'nvr-005'])
  const health = await Promise.all(fleet.devices.map(async device => await (await fetch(`${device.url}/healthz`)).json() as { cameras: number, countingLines: number }))
  t.strictSame(await (await fetch(`${fleet.controlUrl}/healthz`)).json(), {
    status: 'ok',
    cameras: health.reduce((sum, each) => sum + each.cameras, 0),
    countingLines: health.reduce((sum, each) => sum + each.countingLines, 0)
  }, 'the control address answers /healthz without a token, for the devices it serves')
})
