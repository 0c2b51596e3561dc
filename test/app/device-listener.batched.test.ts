import { createServer } from 'node:net'
import { RealClock } from '../../src/util/real-clock.js'
import { once } from 'node:events'
import t, { type Test } from 'tap'
import { buildServingApp } from '../../src/app/build-app.js'
import { Device } from '../../src/device/device.js'
import { DataStore } from '../../src/data/data-store.js'
import { datasetFromData } from '../../src/data/dataset.js'
import { CorsPolicy } from '../../src/wire/cors.js'
import { TokenPolicy } from '../../src/wire/token-policy.js'
import type { FixtureData } from '../../src/contract/schemas.js'
import { AUTH, line, SAMPLE_DATA, TOKEN } from '../helpers/app.js'
import { ADMIN, ADMIN_TOKEN } from '../helpers/control.js'

const OTHER_DATA: FixtureData = { counting_lines: [line({ id: 'line-9', camera_id: 'cam-9', name: 'Other' })] }

function device (name: string, data: FixtureData, tokens: string[] = [TOKEN]): Device {
  const store = new DataStore(datasetFromData(data))
  return new Device({ name, store, tokens: new TokenPolicy(tokens, [ADMIN_TOKEN]), cors: new CorsPolicy(), clock: new RealClock() })
}

async function serve (t: Test, adminToken?: string) {
  const first = device('nvr-001', SAMPLE_DATA)
  const serving = await buildServingApp({ device: first, maxHeaderSize: 65536, ...(adminToken === undefined ? {} : { adminToken }) })
  t.teardown(() => serving.app.close())
  await serving.app.ready()
  return { ...serving, first }
}

const get = async (port: number, path: string, headers: Record<string, string> = AUTH) => {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers })
  return { status: response.status, body: await response.json() as { content: unknown, result: Record<string, unknown> } }
}

t.test('each listener of one app answers from its own device: data, tokens and journal', async t => {
  const { listener, addListener, first } = await serve(t)
  const second = device('nvr-002', OTHER_DATA, ['other-token'])
  const other = addListener({ device: second, api: true, admin: false })
  const [firstPort, secondPort] = [await listener.listen(0, '127.0.0.1'), await other.listen(0, '127.0.0.1')]
  t.not(firstPort, secondPort)
  t.equal(other.port, secondPort)
  t.equal(other.role.device, second)

  t.equal((await get(firstPort, '/nvr/v1/cameras/cam-1/counting_lines')).status, 200, 'the fast path, on the first device')
  t.equal((await get(secondPort, '/nvr/v1/cameras/cam-1/counting_lines', { authorization: 'Bearer other-token' })).status, 404, 'not a camera of the second')
  t.equal((await get(secondPort, '/nvr/v1/cameras/cam-9/counting_lines', AUTH)).status, 401, 'the first device\'s token opens only the first')
  t.strictSame((await get(secondPort, '/nvr/v1/cameras/cam-9/counting_lines/line-9', { authorization: 'Bearer other-token' })).body.content, (OTHER_DATA.counting_lines as unknown[])[0])
  t.strictSame((await get(secondPort, '/healthz', {})).body, { status: 'ok', cameras: 1, countingLines: 1 })
  t.strictSame(first.requests().map(entry => entry.status), [200])
  t.strictSame(second.requests().map(entry => entry.status), [404, 401, 200, 200])

  second.injectFault({ status: 503 })
  t.equal((await get(secondPort, '/nvr/v1/cameras/cam-9/counting_lines', { authorization: 'Bearer other-token' })).status, 503, 'a fault of the second device')
  t.equal((await get(firstPort, '/nvr/v1/cameras/cam-1/counting_lines')).status, 200, 'leaves the first alone')

  const document = async (port: number) => (await get(port, '/openapi.json', {})).body as unknown as { paths: Record<string, unknown> }
  t.not(JSON.stringify(await document(firstPort)).includes('line-9'), true, 'the first device\'s document shows its own examples')
  t.equal(JSON.stringify(await document(secondPort)).includes('line-9'), true, 'the second\'s shows its own')
})

t.test('a listener closes and comes back on the same port while the others serve on', async t => {
  const { listener, addListener } = await serve(t)
  const other = addListener({ device: device('nvr-002', OTHER_DATA), api: true, admin: false })
  const port = await other.listen(0, '127.0.0.1')
  const firstPort = await listener.listen(0, '127.0.0.1')
  await other.close()
  t.equal(other.listening, false)
  await t.rejects(fetch(`http://127.0.0.1:${port}/healthz`), 'nobody answers on its port')
  t.equal((await get(firstPort, '/healthz', {})).status, 200)
  await other.close()
  t.equal(await other.listen(), port, 'back on its port')
  t.equal((await get(port, '/healthz', {})).status, 200)
})

t.test('a port\'s gate takes requests before the fast path and Fastify', async t => {
  const { listener } = await serve(t)
  const port = await listener.listen(0, '127.0.0.1')
  listener.setGate((request, response) => {
    if (request.url === '/healthz') return false
    response.writeHead(503).end()
    return true
  })
  t.equal((await fetch(`http://127.0.0.1:${port}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH })).status, 503)
  t.equal((await get(port, '/healthz', {})).status, 200, 'what it leaves goes on')
  listener.setGate(null)
  t.equal((await get(port, '/nvr/v1/cameras/cam-1/counting_lines')).status, 200)
})

t.test('a control listener serves the admin API and /healthz alone, a device listener of a fleet never serves the admin API', async t => {
  const { addListener, first } = await serve(t, ADMIN_TOKEN)
  const control = addListener({ device: first, api: false, admin: true })
  const deviceOnly = addListener({ device: first, api: true, admin: false })
  const [controlPort, devicePort] = [await control.listen(0, '127.0.0.1'), await deviceOnly.listen(0, '127.0.0.1')]
  t.equal((await get(controlPort, '/__admin/faults', ADMIN)).status, 200)
  t.match(await get(controlPort, '/nvr/v1/cameras/cam-1/counting_lines'), { status: 404, body: { result: { errorCode: 'PATH_NOT_FOUND' } } }, 'the fast path does not answer there')
  t.match(await get(controlPort, '/healthz', {}), { status: 200 }, 'for probes')
  t.match(await get(controlPort, '/openapi.json', {}), { status: 404 })
  t.match(await get(devicePort, '/__admin/faults', ADMIN), { status: 404, body: { result: { errorCode: 'PATH_NOT_FOUND' } } })
  t.equal((await get(devicePort, '/nvr/v1/cameras/cam-1/counting_lines')).status, 200)
  const store = new DataStore(datasetFromData(OTHER_DATA))
  const opensAdmin = new Device({ name: 'nvr-003', store, tokens: new TokenPolicy([ADMIN_TOKEN]), cors: new CorsPolicy(), clock: new RealClock() })
  t.throws(() => addListener({ device: opensAdmin, api: true, admin: false }), { name: 'OptionsError' }, 'no device\'s token may be the admin token')
})

t.test('a port in use fails the listen with the error; the app closes every listener', async t => {
  const blocker = createServer().listen(0, '127.0.0.1')
  await once(blocker, 'listening')
  t.teardown(() => blocker.close())
  const busy = (blocker.address() as { port: number }).port
  const { app, listener, addListener } = await serve(t)
  const other = addListener({ device: device('nvr-002', OTHER_DATA), api: true, admin: false })
  await t.rejects(other.listen(busy, '127.0.0.1'), { code: 'EADDRINUSE' })
  t.equal(other.listening, false)
  const port = await other.listen(0, '127.0.0.1')
  await listener.listen(0, '127.0.0.1')
  await app.close()
  t.equal(other.listening, false)
  t.equal(listener.listening, false)
  await t.rejects(fetch(`http://127.0.0.1:${port}/healthz`))
})
