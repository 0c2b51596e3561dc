import t, { type Test } from 'tap'
import { startMockFleet } from '../../src/index.js'
import { AUTH, SAMPLE_DATA } from '../helpers/app.js'
import { ADMIN, ADMIN_TOKEN } from '../helpers/control.js'

const body = (value: unknown) => ({ headers: { ...ADMIN, 'content-type': 'application/json' }, payload: JSON.stringify(value) })

async function fleetOf (t: Test) {
  const fleet = await startMockFleet({ count: 3, data: SAMPLE_DATA, adminToken: ADMIN_TOKEN })
  t.teardown(() => fleet.close())
  // inject() reaches the app as its control address does.
  const admin = async (method: string, url: string, payload?: unknown) => {
    const response = await fleet.app.inject({ method: method as 'GET', url, ...(payload === undefined ? { headers: ADMIN } : body(payload)) })
    return { status: response.statusCode, content: response.json().content, result: response.json().result }
  }
  const read = async (name: string) => (await fetch(`${fleet.device(name)?.url as string}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH })).status
  return { fleet, admin, read }
}

t.test('/__admin/devices/{name}/… gives each device the admin verbs of a single mock-nvr', async t => {
  const { fleet, admin, read } = await fleetOf(t)
  t.match(await admin('POST', '/__admin/devices/nvr-002/faults', { status: 503, errorCode: 'BUSY' }), { status: 201, content: { id: 'fault-1', status: 503 } })
  t.strictSame([await read('nvr-001'), await read('nvr-002')], [200, 503])
  t.match(await admin('GET', '/__admin/devices/nvr-002/faults'), { content: [{ id: 'fault-1' }] })
  t.strictSame((await admin('GET', '/__admin/devices/nvr-001/faults')).content, [])
  t.match(await admin('GET', '/__admin/devices/nvr-002/requests'), { content: { requests: [{ status: 503, fault: 'fault-1' }], total: 1 } })
  t.equal((await admin('DELETE', '/__admin/devices/nvr-002/faults/fault-1')).status, 200)
  t.equal(await read('nvr-002'), 200)

  t.match(await admin('PUT', '/__admin/devices/nvr-003/data', { cameras: [{ id: 'cam-1' }] }), { status: 200, content: { cameras: 1, countingLines: 0 } })
  t.strictSame((await admin('GET', '/__admin/devices/nvr-003/data')).content, { cameras: [{ id: 'cam-1' }], counting_lines: [] })
  t.equal((await admin('GET', '/__admin/devices/nvr-001/data')).content.counting_lines.length, 3, 'the others keep the shared data')
  t.match(await admin('DELETE', '/__admin/devices/nvr-003/data'), { content: { cameras: 3, countingLines: 3 } })
  t.equal((await admin('POST', '/__admin/devices/nvr-002/reset')).status, 200)
  t.strictSame(fleet.device('nvr-002')?.requests(), [])
  t.equal((await fleet.app.inject({ method: 'HEAD', url: '/__admin/devices/nvr-001/requests/stream', headers: ADMIN })).headers['content-type'], 'text/event-stream; charset=utf-8')

  t.match(await admin('GET', '/__admin/devices/nvr-404/faults'), { status: 404, result: { errorCode: 'DEVICE_NOT_FOUND', errorMessage: 'No device of the fleet is named "nvr-404".' } })
  t.match(await admin('POST', '/__admin/devices/nvr-001/faults', { status: 99 }), { status: 400, result: { errorCode: 'INVALID_BODY', problems: [{ path: '/status', message: 'must be a whole number from 400 to 599, not 99' }] } })
  const refused = await fleet.app.inject({ url: '/__admin/devices' })
  t.equal(refused.statusCode, 401)
  t.equal((await fleet.app.inject({ url: '/__admin/devices/nvr-001/faults' })).statusCode, 401)
})

t.test('/__admin/… without a name addresses every device: faults, journal and reset', async t => {
  const { fleet, admin, read } = await fleetOf(t)
  const injected = await admin('POST', '/__admin/faults', { status: 500, times: 1 })
  t.equal(injected.status, 201)
  t.strictSame(injected.content.map((fault: { device: string }) => fault.device), ['nvr-001', 'nvr-002', 'nvr-003'])
  t.strictSame((await admin('GET', '/__admin/faults')).content.map((fault: { device: string, id: string }) => `${fault.device} ${fault.id}`), ['nvr-001 fault-1', 'nvr-002 fault-1', 'nvr-003 fault-1'])
  t.strictSame([await read('nvr-001'), await read('nvr-002'), await read('nvr-003')], [500, 500, 500])
  t.strictSame([await read('nvr-003')], [200], 'times: 1 on each')

  const journal = await admin('GET', '/__admin/requests')
  t.equal(journal.content.total, 4)
  t.strictSame(journal.content.requests.map((entry: { device: string, status: number }) => [entry.device, entry.status]), [['nvr-001', 500], ['nvr-002', 500], ['nvr-003', 500], ['nvr-003', 200]])
  t.equal((await admin('DELETE', '/__admin/requests')).status, 200)
  t.strictSame(fleet.requests(), [])

  await admin('POST', '/__admin/faults', { status: 503 })
  t.equal((await admin('DELETE', '/__admin/faults')).status, 200)
  t.strictSame((await admin('GET', '/__admin/faults')).content, [])
  t.match(await admin('POST', '/__admin/faults', { status: 'x' }), { status: 400, result: { errorCode: 'INVALID_BODY' } })
  t.match(await admin('POST', '/__admin/faults', { delay: { min: 500, max: 100 } }), { status: 400, result: { errorCode: 'INVALID_BODY', problems: [{ path: '/delay', message: 'must go from low to high, not from 500 to 100' }] } })
  t.strictSame((await admin('GET', '/__admin/faults')).content, [], 'a refused spec changes no device')

  fleet.device('nvr-001')?.injectFault({ status: 502 })
  await read('nvr-002')
  t.equal((await admin('POST', '/__admin/reset')).status, 200)
  t.strictSame([fleet.requests(), fleet.device('nvr-001')?.faults()], [[], []])
  t.match(await admin('GET', '/__admin/unknown'), { status: 404, result: { errorCode: 'PATH_NOT_FOUND' } })
  t.match(await admin('PATCH', '/__admin/reset'), { status: 405 })
})

t.test('GET /__admin/devices counts each device\'s faults in force, however they were injected, until cleared or used up', async t => {
  const { fleet, admin, read } = await fleetOf(t)
  const faults = async () => (await admin('GET', '/__admin/devices')).content.devices.map((device: { faults: number }) => device.faults)
  t.strictSame(await faults(), [0, 0, 0])
  await admin('POST', '/__admin/devices/nvr-002/faults', { status: 503, times: 1 })
  fleet.device('nvr-002')?.injectFault({ delay: 10, route: 'retrieve' })
  fleet.device('nvr-003')?.injectFault({ status: 500 })
  t.strictSame(await faults(), [0, 2, 1])
  t.equal(await read('nvr-002'), 503)
  t.strictSame(await faults(), [0, 1, 1], 'a fault used up is no longer counted')
  t.equal((await admin('DELETE', '/__admin/devices/nvr-002/faults')).status, 200)
  t.strictSame(await faults(), [0, 0, 1])
  await admin('POST', '/__admin/faults', { status: 502 })
  t.strictSame(await faults(), [1, 1, 2])
})

t.test('without an admin token the control address serves no admin API', async t => {
  const fleet = await startMockFleet({ count: 1, data: SAMPLE_DATA })
  t.teardown(() => fleet.close())
  t.equal((await fetch(`${fleet.controlUrl}/__admin/devices`, { headers: ADMIN })).status, 404)
})
