import t from 'tap'
import { startMockFleet } from '../../src/fleet/start-mock-fleet.js'
import { startMockNvr } from '../../src/start/start-mock-nvr.js'
import { AUTH, SAMPLE_DATA } from '../helpers/app.js'
import { ADMIN, ADMIN_TOKEN } from '../helpers/control.js'
import { captureLogs, type LogRecord } from '../helpers/log-capture.js'

const requestLines = (records: LogRecord[]) => records.filter(record => record.msg === 'request completed')

t.test('in a fleet every request line, of the fast path and of Fastify, and every line about one device names it', async t => {
  const captured = captureLogs()
  const fleet = await startMockFleet({ count: 2, data: SAMPLE_DATA, adminToken: ADMIN_TOKEN, logger: captured.logger })
  t.teardown(() => fleet.close())
  const camera = (fleet.devices[0]?.data().cameras as Array<{ id: string }>)[0]?.id as string
  const api = (name: string, path: string) => fetch(`${fleet.device(name)?.url as string}/nvr/v1/cameras/${path}`, { headers: AUTH })
  t.equal((await api('nvr-001', `${camera}/counting_lines`)).status, 200, 'answered by the fast path')
  t.equal((await api('nvr-002', 'no-such-camera/counting_lines')).status, 404, 'answered by Fastify')
  const refused = await fetch(`${fleet.device('nvr-002')?.url as string}/nvr/v1/cameras/${camera}/counting_lines`, { method: 'DELETE', headers: AUTH })
  t.equal(refused.status, 405)
  const healthSet = captured.next(record => record.msg === 'health: offline')
  const put = await fetch(`${fleet.controlUrl}/__admin/devices/nvr-002/health`, { method: 'PUT', headers: { ...ADMIN, 'content-type': 'application/json' }, body: '{"state":"offline"}' })
  t.equal(put.status, 200)
  await healthSet

  t.match(requestLines(captured.records).map(({ device, statusCode, url }) => ({ device, statusCode, url })), [
    { device: 'nvr-001', statusCode: 200 },
    { device: 'nvr-002', statusCode: 404 },
    { device: 'nvr-002', statusCode: 405 },
    { device: undefined, statusCode: 200, url: '/__admin/devices/nvr-002/health' }
  ], 'the control address\'s own lines name no device: its URL does')
  t.match(captured.records.find(record => record.msg === 'admin: health set to offline'), { device: 'nvr-002' })
  t.match(captured.records.find(record => record.msg === 'health: offline'), { device: 'nvr-002' })
  t.notOk(captured.records.some(record => record.msg === 'serving a fleet of devices' && 'device' in record), 'the fleet\'s own lines name none')
})

t.test('a single mock-nvr\'s lines name no device', async t => {
  const captured = captureLogs()
  const nvr = await startMockNvr({ port: 0, data: SAMPLE_DATA, logger: captured.logger })
  t.teardown(() => nvr.close())
  const camera = (nvr.data().cameras as Array<{ id: string }>)[0]?.id as string
  await (await fetch(`${nvr.url}/nvr/v1/cameras/${camera}/counting_lines`, { headers: AUTH })).arrayBuffer()
  await (await fetch(`${nvr.url}/nvr/v1/cameras/nope/counting_lines`, { headers: AUTH })).arrayBuffer()
  const lines = requestLines(captured.records)
  t.equal(lines.length, 2)
  t.notOk(captured.records.some(record => 'device' in record))
})
