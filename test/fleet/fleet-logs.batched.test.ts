import t from 'tap'
import { startMockFleet } from '../../src/fleet/start-mock-fleet.js'
import { startMockNvr } from '../../src/start/start-mock-nvr.js'
import { AUTH, SAMPLE_DATA } from '../helpers/app.js'
import { ADMIN, ADMIN_TOKEN } from '../helpers/control.js'
import { captureLogs, type LogRecord } from '../helpers/log-capture.js'
import { SUMMARY_MESSAGE } from '../../src/fleet/fleet-summary.js'

const requestLines = (records: LogRecord[]) => records.filter(record => record.msg === 'request completed')

t.test('in a fleet at debug every request line, of the fast path and of Fastify, and every line about one device names it', async t => {
  const captured = captureLogs('trace')
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

  t.match(requestLines(captured.records).map(({ level, device, statusCode, url }) => ({ level, device, statusCode, url })), [
    { level: 20, device: 'nvr-001', statusCode: 200 },
    { level: 20, device: 'nvr-002', statusCode: 404 },
    { level: 20, device: 'nvr-002', statusCode: 405 },
    { level: 30, device: undefined, statusCode: 200, url: '/__admin/devices/nvr-002/health' }
  ], 'the devices\' lines at debug; the control address\'s own at info name no device: its URL does')
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

t.test('a fleet at info writes no line per request but one a second of its clock with its counts, when something happened', async t => {
  const captured = captureLogs()
  const fleet = await startMockFleet({ count: 2, data: SAMPLE_DATA, adminToken: ADMIN_TOKEN, logger: captured.logger, clock: 'manual' })
  t.teardown(() => fleet.close())
  t.equal(fleet.clock.pending, 0, 'the summary is no wait a test would see')
  const camera = (fleet.devices[0]?.data().cameras as Array<{ id: string }>)[0]?.id as string
  const api = async (name: string, path: string) => await (await fetch(`${fleet.device(name)?.url as string}/nvr/v1/cameras/${path}`, { headers: AUTH })).arrayBuffer()
  await api('nvr-001', `${camera}/counting_lines`)
  await api('nvr-002', `${camera}/counting_lines`)
  await api('nvr-002', 'no-such-camera/counting_lines')
  const summaries = () => captured.records.filter(record => record.msg === SUMMARY_MESSAGE)
  t.strictSame(summaries(), [], 'nothing before the clock moves')
  await fleet.clock.advance(1000)
  t.match(summaries(), [{ level: 30, requests: 3, statuses: { 200: 2, 404: 1 }, devices: { online: 2 } }])
  await fleet.clock.advance(5000)
  t.equal(summaries().length, 1, 'seconds with nothing new write nothing')
  await fleet.devices[1]?.setHealth({ state: 'offline' })
  await fleet.clock.advance(1000)
  t.match(summaries()[1], { requests: 0, statuses: {}, devices: { online: 1, offline: 1 } }, 'a change of health is something new')
  t.strictSame(requestLines(captured.records).filter(record => 'device' in record), [], 'no device wrote a request line')
})
