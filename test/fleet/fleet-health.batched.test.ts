import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { startMockFleet, type MockFleet } from '../../src/fleet/start-mock-fleet.js'
import { readFleetFile } from '../../src/fleet/fleet-file.js'
import { parseCli } from '../../src/cli/args.js'
import { AUTH, SAMPLE_DATA } from '../helpers/app.js'
import { ADMIN, ADMIN_TOKEN } from '../helpers/control.js'
import { UsageError } from '../../src/errors/errors.js'

async function fleetOf (t: Test, options: Parameters<typeof startMockFleet>[0]): Promise<MockFleet> {
  const fleet = await startMockFleet({ data: SAMPLE_DATA, clock: 'manual', adminToken: ADMIN_TOKEN, ...options })
  t.teardown(() => fleet.close())
  return fleet
}

async function status (url: string): Promise<number | string> {
  try {
    return (await fetch(`${url}/healthz`)).status
  } catch (error) {
    return ((error as Error & { cause?: { code?: string } }).cause?.code) ?? 'failed'
  }
}

const admin = (fleet: MockFleet, method: string, path: string, body?: unknown) =>
  fetch(`${fleet.controlUrl}/__admin${path}`, { method, headers: { ...ADMIN, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })

t.test('--offline-fraction: that share of the devices, chosen by the seed, is offline from the start', async t => {
  const dir = t.testdir({})
  const manifest = join(dir, 'manifest.json')
  const fleet = await fleetOf(t, { count: 4, offlineFraction: 0.5, seed: 3, manifest })
  const statuses = await Promise.all(fleet.devices.map(device => status(device.url)))
  t.equal(statuses.filter(each => each === 'ECONNREFUSED').length, 2)
  t.equal(statuses.filter(each => each === 200).length, 2)
  const again = await startMockFleet({ data: SAMPLE_DATA, clock: 'manual', count: 4, offlineFraction: 0.5, seed: 3 })
  t.teardown(() => again.close())
  t.strictSame(again.devices.map(device => device.health().state), fleet.devices.map(device => device.health().state), 'the same seed, the same devices')
  const written = JSON.parse(await readFile(manifest, 'utf8')) as { devices: Array<{ name: string, health?: { state: string } }> }
  const offline = fleet.devices.filter(device => device.health().state === 'offline').map(device => new URL(device.url).port)
  t.strictSame(written.devices.filter(device => device.health?.state === 'offline').map(device => device.name).length, 2, 'the manifest has the health of each device with a schedule')
  t.equal(written.devices.filter(device => device.health === undefined).length, 2, 'and none for a device always online')
  t.equal(offline.length, 2)
  const { content } = await (await admin(fleet, 'GET', '/devices')).json() as { content: { devices: Array<{ state: string }> } }
  t.strictSame(content.devices.map(device => device.state).sort(), ['offline', 'offline', 'online', 'online'])
})

t.test('--flapping-fraction: flapping devices walked with fleet.clock.advance, the timeline in the manifest', async t => {
  const dir = t.testdir({})
  const manifest = join(dir, 'manifest.json')
  const fleet = await fleetOf(t, { count: 2, flappingFraction: 1, manifest })
  const written = JSON.parse(await readFile(manifest, 'utf8')) as { devices: Array<{ health: { next: Array<{ state: string }> } }> }
  t.equal(written.devices[0]?.health.next.length, 10)
  const device = fleet.devices[0] as MockFleet['devices'][number]
  const [first] = device.health().next
  await fleet.clock.advance(Date.parse((first as { at: string }).at) - fleet.clock.now())
  t.equal(device.health().state, (first as { state: string }).state)
  t.equal(await status(device.url), device.health().state === 'offline' ? 'ECONNREFUSED' : 200)
})

t.test('PUT /__admin/devices/{name}/health on the control address needs no `for`; POST /__admin/clock walks every device', async t => {
  const fleet = await fleetOf(t, { count: 2 })
  const response = await admin(fleet, 'PUT', '/devices/nvr-002/health', { state: 'offline' })
  t.equal(response.status, 200)
  t.match((await response.json() as { content: unknown }).content, { state: 'offline', listening: false })
  t.equal(await status(fleet.devices[1]?.url as string), 'ECONNREFUSED')
  t.equal(await status(fleet.devices[0]?.url as string), 200, 'the other device serves on')
  const rebooting = await admin(fleet, 'PUT', '/devices/nvr-001/health', { state: 'rebooting', down: 1000, starting: 1000 })
  t.equal(rebooting.status, 200)
  t.equal((await admin(fleet, 'POST', '/clock', { advance: 1000 })).status, 200)
  t.equal(await status(fleet.devices[0]?.url as string), 503)
  const listed = await (await admin(fleet, 'GET', '/devices')).json() as { content: { devices: Array<{ name: string, state: string }> } }
  t.strictSame(listed.content.devices.map(({ name, state }) => [name, state]), [['nvr-001', 'rebooting (starting)'], ['nvr-002', 'offline']])
  const health = await (await admin(fleet, 'GET', '/devices/nvr-001/health')).json() as { content: unknown }
  t.match(health.content, { state: 'rebooting', phase: 'starting' })
  await fleet.devices[1]?.setHealth({ state: 'online' })
  t.equal(await status(fleet.devices[1]?.url as string), 200)
  fleet.reset()
  await fleet.clock.advance(0)
  t.equal(await status(fleet.devices[0]?.url as string), 200, 'reset brings every device online')
  const answer = await fetch(`${fleet.devices[0]?.url as string}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH })
  t.equal(answer.status, 200)
})

t.test('a fleet on the real clock: GET /__admin/clock reads it, POST is a 409; a device\'s path has no clock of its own', async t => {
  const fleet = await fleetOf(t, { count: 1, clock: 'real' })
  const read = await admin(fleet, 'GET', '/clock')
  t.equal(read.status, 200)
  t.ok(Math.abs(Date.parse((await read.json() as { content: { now: string } }).content.now) - Date.now()) < 60_000)
  const refused = await admin(fleet, 'POST', '/clock', { advance: 1000 })
  t.equal(refused.status, 409)
  t.match(await refused.json(), { result: { errorCode: 'CLOCK_NOT_MANUAL', errorMessage: /--clock manual/ } })
  t.equal((await admin(fleet, 'POST', '/devices/nvr-001/clock', { advance: 1000 })).status, 404)
})

t.test('health and drift in a fleet file, per device and as a default; problems named by file and JSON path', async t => {
  const dir = t.testdir({
    'fleet.json': JSON.stringify({ drift: 60000, health: { pattern: 'reboot', every: 60000, down: 1000, starting: 1000 }, devices: [{ name: 'a' }, { name: 'b', health: { state: 'slow', latency: 100 } }] }),
    'bad.json': JSON.stringify({ health: { pattern: 'flapping', up: 0, down: 1 }, devices: [{ name: 'a', health: [{ at: 5, state: 'offline' }, { at: 1, state: 'online' }] }, { name: 'b', health: { state: 'asleep' } }] })
  })
  const { defaults, devices } = await readFleetFile(join(dir, 'fleet.json'))
  t.match(defaults, { drift: 60000, health: { pattern: 'reboot' } })
  t.match(devices[1], { name: 'b', health: { state: 'slow', latency: 100 } })
  await t.rejects(readFleetFile(join(dir, 'bad.json')), {
    message: [
      'Invalid fleet file:',
      `  ${join(dir, 'bad.json')}: /health/up: must be a whole number from 1 to 2147483647, not 0`,
      `  ${join(dir, 'bad.json')}: /devices/0/health/1/at: must come after the previous step's at (5), not 1`,
      `  ${join(dir, 'bad.json')}: /devices/1/health/state: must be one of "online", "offline", "unreachable", "rebooting", "slow", not "asleep"`
    ].join('\n')
  })
  const fleet = await fleetOf(t, { ...defaults, devices })
  t.match(fleet.device('a')?.health(), { state: 'online', next: [{ state: 'rebooting' }] })
  t.match(fleet.device('b')?.health(), { state: 'slow', latency: 100 })
  await fleet.clock.advance(60_000)
  t.match(fleet.device('a')?.events(), [{ kind: 'health', state: 'rebooting' }, { kind: 'data' }])
})

t.test('the fractions are fleet flags, numbers from 0 to 1, together at most 1', async t => {
  t.match(parseCli(['--devices', '10', '--offline-fraction', '0.2', '--flapping-fraction', '0.5'], {}), { options: { offlineFraction: 0.2, flappingFraction: 0.5 } })
  t.throws(() => parseCli(['--devices', '10', '--offline-fraction', 'half'], {}), new UsageError('--offline-fraction must be a number from 0 to 1, like 0.25, not \'half\''))
  t.throws(() => parseCli(['--devices', '10', '--flapping-fraction', '1.5'], {}), new UsageError('--flapping-fraction must be a number from 0 to 1, not \'1.5\''))
  t.throws(() => parseCli(['--devices', '10', '--offline-fraction', '0.6', '--flapping-fraction', '0.5'], {}), new UsageError('--offline-fraction and --flapping-fraction add up to more than 1: a device is offline or flapping, not both'))
  t.throws(() => parseCli(['--offline-fraction', '0.5'], {}), new UsageError('--offline-fraction applies to a fleet only: give --devices too'))
})

t.test('the admin list shows a device whose port was taken while it was offline as "offline (port taken)"', async t => {
  const { createServer } = await import('node:net')
  const fleet = await fleetOf(t, { count: 1 })
  const device = fleet.devices[0] as MockFleet['devices'][number]
  await device.setHealth({ state: 'offline' })
  const squatter = createServer()
  await new Promise<void>(resolve => squatter.listen(Number(new URL(device.url).port), '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>(resolve => squatter.close(() => resolve())))
  await device.setHealth({ state: 'online' })
  const listed = await (await admin(fleet, 'GET', '/devices')).json() as { content: { devices: Array<{ state: string }> } }
  t.equal(listed.content.devices[0]?.state, 'offline (port taken)')
})

t.test('a manifest that cannot be written fails the start, and closes every device that listened', async t => {
  const dir = t.testdir({ 'a-file': 'not a folder' })
  const logs: string[] = []
  const failed = await startMockFleet({
    count: 2,
    data: SAMPLE_DATA,
    port: 0,
    manifest: join(dir, 'a-file', 'manifest.json'),
    onControlListening: url => { logs.push(url) }
  }).catch((error: unknown) => error as Error)
  t.type(failed, Error)
  t.equal(logs.length, 1, 'the control address had listened')
  await t.rejects(fetch(`${logs[0] as string}/healthz`), 'and is closed again')
})
