import { createServer } from 'node:net'
import { once } from 'node:events'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { get } from 'node:https'
import { FleetListenError, startMockFleet, type MockFleet } from '../../src/index.js'
import { startFleetCommand } from '../../src/cli/fleet-command.js'
import { AUTH, SAMPLE_DATA } from '../helpers/app.js'
import { ADMIN, ADMIN_TOKEN } from '../helpers/control.js'

async function fleetOf (t: Test, options: Parameters<typeof startMockFleet>[0]): Promise<MockFleet> {
  const fleet = await startMockFleet(options)
  t.teardown(() => fleet.close())
  return fleet
}

const json = async (url: string, headers: Record<string, string> = AUTH) => {
  const response = await fetch(url, { headers })
  return { status: response.status, body: await response.json() as { content: any, result: any } }
}

t.test('a fleet of 3 generated devices: each on its own port with its own data, the same again for the same seed', async t => {
  const fleet = await fleetOf(t, { count: 3, generate: { cameras: 2, linesPerCamera: 3 }, seed: 7 })
  t.strictSame(['nvr-001', 'nvr-002', 'nvr-003'].map(name => fleet.device(name)?.url), fleet.devices.map(device => device.url))
  t.equal(new Set(fleet.devices.map(device => device.port)).size, 3, 'three ports')
  const lines = await Promise.all(fleet.devices.map(async device => (await json(`${device.url}/nvr/v1/cameras/cam-1/counting_lines`)).body.content))
  t.equal(new Set(lines.map(each => JSON.stringify(each))).size, 3, 'each device its own lines')
  const again = await fleetOf(t, { count: 3, generate: { cameras: 2, linesPerCamera: 3 }, seed: 7 })
  t.strictSame(again.devices.map(device => device.data()), fleet.devices.map(device => device.data()), 'the same seed, the same fleet')
  const other = await fleetOf(t, { count: 1, generate: { cameras: 2, linesPerCamera: 3 }, seed: 8 })
  t.not(JSON.stringify(other.devices[0]?.data()), JSON.stringify(fleet.devices[0]?.data()), 'another seed, other data')
  t.equal(fleet.device('nvr-404'), undefined)
})

t.test('a fleet of 200 on shared data: every device answers on its port; verbs act on one device or on all', async t => {
  const fleet = await fleetOf(t, { count: 200, data: SAMPLE_DATA, journalSize: 10 })
  const statuses = await Promise.all(fleet.devices.map(async device => (await fetch(`${device.url}/nvr/v1/cameras/cam-1/counting_lines/line-2`, { headers: AUTH })).status))
  t.strictSame(new Set(statuses), new Set([200]))
  t.equal(fleet.requests().length, 200)
  t.equal(new Set(fleet.requests().map(entry => entry.device)).size, 200, 'each entry names its device')

  const second = fleet.device('nvr-002')
  second?.injectFault({ status: 503 })
  t.equal((await fetch(`${second?.url as string}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH })).status, 503)
  t.equal((await fetch(`${fleet.devices[0]?.url as string}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH })).status, 200, 'the others are unaffected')
  await fleet.reset()
  t.strictSame(fleet.requests(), [])
  t.strictSame(second?.faults(), [])
  second?.use({ cameras: [{ id: 'only-here' }] })
  t.equal((await fetch(`${second?.url as string}/nvr/v1/cameras/only-here/counting_lines`, { headers: AUTH })).status, 200)
  t.equal((await fetch(`${fleet.devices[0]?.url as string}/nvr/v1/cameras/only-here/counting_lines`, { headers: AUTH })).status, 404, 'shared data is replaced for one device only')
})

t.test('every device serves /healthz, the document, the docs and CORS, with the same flags; admin only on the control address', async t => {
  const fleet = await fleetOf(t, { count: 2, data: SAMPLE_DATA, tokens: ['fleet-token'], corsOrigins: ['https://app.example'], latency: 0, adminToken: ADMIN_TOKEN })
  const [device] = fleet.devices
  const url = device?.url as string
  t.strictSame((await json(`${url}/healthz`)).body, { status: 'ok', cameras: 3, countingLines: 3 })
  t.equal((await fetch(`${url}/openapi.json`)).status, 200)
  t.equal((await fetch(`${url}/docs`, { redirect: 'manual' })).status < 400, true)
  const cors = await fetch(`${url}/nvr/v1/cameras/cam-1/counting_lines`, { headers: { authorization: 'Bearer fleet-token', origin: 'https://app.example' } })
  t.equal(cors.headers.get('access-control-allow-origin'), 'https://app.example')
  t.equal((await fetch(`${url}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH })).status, 401, 'the fleet\'s token only')
  t.match(await json(`${url}/__admin/devices`, ADMIN), { status: 404, body: { result: { errorCode: 'PATH_NOT_FOUND' } } })
  t.equal((await json(`${fleet.controlUrl}/__admin/devices`, ADMIN)).status, 200)
  t.equal((await fetch(`${fleet.controlUrl}/nvr/v1/cameras/cam-1/counting_lines`, { headers: { authorization: 'Bearer fleet-token' } })).status, 404, 'no device API on the control address')
})

t.test('the manifest is written before start resolves and agrees with the admin list', async t => {
  const dir = t.testdir()
  const manifest = join(dir, 'fleet.json')
  let controlSeen = ''
  const fleet = await fleetOf(t, { count: 3, data: SAMPLE_DATA, adminToken: ADMIN_TOKEN, manifest, onControlListening: url => { controlSeen = url } })
  t.equal(controlSeen, fleet.controlUrl)
  const written = JSON.parse(await readFile(manifest, 'utf8')) as { devices: unknown[] }
  const listed = (await json(`${fleet.controlUrl}/__admin/devices`, ADMIN)).body.content as { devices: Array<Record<string, unknown>> }
  t.strictSame(written.devices, listed.devices.map(({ name, url, cameras }) => ({ name, url, cameras })))
  t.strictSame(listed.devices.map(device => device.state), ['online', 'online', 'online'])
  t.strictSame(listed.devices.map(device => device.name), ['nvr-001', 'nvr-002', 'nvr-003'])
})

t.test('a busy port names the device and the port, and nothing of the fleet is left listening', async t => {
  const blocker = createServer().listen(0, '127.0.0.1')
  await once(blocker, 'listening')
  t.teardown(() => blocker.close())
  const busy = (blocker.address() as { port: number }).port
  let controlUrl = ''
  await t.rejects(startMockFleet({ devices: [{ name: 'first' }, { name: 'second', port: busy }], data: SAMPLE_DATA, onControlListening: url => { controlUrl = url } }), {
    name: 'FleetListenError', message: `device second cannot listen on port ${busy}: it is already in use; no device was started`
  })
  await t.rejects(fetch(`${controlUrl}/healthz`), 'the control address is closed again')
  await t.rejects(startMockFleet({ count: 1, data: SAMPLE_DATA, controlPort: busy }), {
    name: 'ListenError', message: `cannot listen: the control address (the fleet's admin API and dashboard): port ${busy} on 127.0.0.1 is already in use; choose another port with option controlPort`
  })
})

t.test('ports follow the fleet\'s port; the control port is the one before, or the one given', async t => {
  // A port below the ephemeral range, where no connection of another test lands, tried directly: one another
  // program holds is an error of the start, and another is tried, so nothing is checked free and then used.
  let fleet: MockFleet | undefined
  let free = 0
  for (let attempt = 0; fleet === undefined; attempt++) {
    free = 20_001 + Math.floor(Math.random() * 9000)
    try {
      fleet = await fleetOf(t, { count: 2, port: free, data: SAMPLE_DATA })
    } catch (error) {
      if (attempt === 4 || !/already in use/.test((error as Error).message)) throw error
    }
  }
  t.strictSame(fleet.devices.map(device => device.port), [free, free + 1])
  t.equal(fleet.controlUrl, `http://127.0.0.1:${free - 1}`)
  await fleet.devices[1]?.close()
  await t.rejects(fetch(`${fleet.devices[1]?.url as string}/healthz`), 'a device\'s close() closes its port alone')
  t.equal((await fetch(`${fleet.devices[0]?.url as string}/healthz`)).status, 200)
})

t.test('over HTTPS every device serves with the one certificate, which each handle gives', async t => {
  const fleet = await fleetOf(t, { count: 2, data: SAMPLE_DATA, tlsSelfSigned: true })
  const [first, second] = fleet.devices
  t.match(fleet.controlUrl, /^https:/)
  t.equal(first?.certificate, second?.certificate)
  const status = await new Promise<number | undefined>((resolve, reject) => {
    get(`${second?.url as string}/healthz`, { ca: second?.certificate }, response => {
      response.resume()
      resolve(response.statusCode)
    }).on('error', reject)
  })
  t.equal(status, 200)
})

t.test('a port that fails for another reason is named with the reason', async t => {
  const cause = Object.assign(new Error('permission denied'), { code: 'EACCES' })
  t.equal(new FleetListenError('nvr-001', 80, cause).message, 'device nvr-001 cannot listen on port 80: permission denied; no device was started')
})

t.test('the command line\'s fleet file without top-level data keeps the flags\' data', async t => {
  const dir = t.testdir({ 'fleet.json': JSON.stringify({ devices: [{ name: 'a' }, { name: 'b', generate: '1x1' }] }) })
  let control = ''
  const fleet = await startFleetCommand({ fleet: join(dir, 'fleet.json'), port: 0, generate: { cameras: 2, linesPerCamera: 1 } }, url => { control = url })
  t.teardown(() => fleet.close())
  t.equal(control, fleet.controlUrl)
  t.strictSame(fleet.devices.map(device => device.data().cameras?.length), [2, 1])
})
