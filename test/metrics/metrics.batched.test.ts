import t from 'tap'
import { buildApp, startMockFleet, startMockNvr } from '../../src/index.js'
import { DataStore } from '../../src/data/data-store.js'
import { datasetFromData } from '../../src/data/dataset.js'
import { TokenPolicy } from '../../src/wire/token-policy.js'
import { CorsPolicy } from '../../src/wire/cors.js'
import { AUTH, SAMPLE_DATA, TOKEN } from '../helpers/app.js'
import { parsePrometheusText, valueOf } from '../helpers/prometheus-text.js'

const ADMIN = 'admin-secret'
const ADMIN_AUTH = { authorization: `Bearer ${ADMIN}` }

async function scrape (url: string) {
  const answer = await fetch(`${url}/__admin/metrics`, { headers: ADMIN_AUTH })
  return { status: answer.status, type: answer.headers.get('content-type'), samples: parsePrometheusText(await answer.text()) }
}

t.test('a single mock-nvr counts its requests, faults, health changes and answer times, exactly', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA, tokens: [TOKEN], adminToken: ADMIN, clock: 'manual' })
  t.teardown(() => nvr.close())
  const get = async (path: string, headers: Record<string, string> = AUTH) => await fetch(`${nvr.url}${path}`, { headers }).then(async answer => { await answer.arrayBuffer(); return answer.status }, () => 'dropped')
  const list = '/nvr/v1/cameras/cam-1/counting_lines'
  t.strictSame([await get(list), await get(list), await get(`${list}/line-2`), await get(`${list}/nope`), await get(list, {}), await get('/healthz')], [200, 200, 200, 404, 401, 200])
  t.equal(await get('/nvr/v1/cameras/%zz/counting_lines'), 400, 'refused before routing, without parameters')
  nvr.injectFault({ status: 503, times: 1 })
  nvr.injectFault({ drop: true, route: 'retrieve', times: 1 })
  t.strictSame([await get(list), await get(`${list}/line-2`)], [503, 'dropped'])
  nvr.injectFault({ malformed: true, times: 2 })
  t.strictSame([await get(list), await get(list)], [200, 200])
  await nvr.setHealth({ state: 'rebooting', down: 0, starting: 1000 })
  t.equal(await get(list), 503, 'starting')
  t.equal(await get('/nvr/v1/cameras/%zz/counting_lines'), 503, 'starting, whatever the path')
  await nvr.clock.advance(1000)

  const { status, type, samples } = await scrape(nvr.url)
  t.equal(status, 200)
  t.equal(type, 'text/plain; version=0.0.4; charset=utf-8')
  const requests = (operation: string, status: string) => valueOf(samples, 'mock_nvr_requests_total', { device: 'nvr', operation, status })
  t.strictSame([requests('list', '200'), requests('retrieve', '200'), requests('retrieve', '404'), requests('list', '401'), requests('other', '200'), requests('list', '503'), requests('retrieve', 'dropped'), requests('other', '503'), requests('other', '400')],
    [4, 1, 1, 1, 1, 2, 1, 1, 1], 'by operation and status: the starting 503 too; the admin calls not at all')
  t.equal(samples.filter(sample => sample.name === 'mock_nvr_requests_total').reduce((sum, sample) => sum + sample.value, 0), 13)
  t.strictSame(['status', 'drop', 'malformed', 'delay', 'prefer'].map(kind => valueOf(samples, 'mock_nvr_faults_injected_total', { device: 'nvr', kind })), [1, 1, 2, undefined, undefined])
  t.strictSame(samples.filter(sample => sample.name === 'mock_nvr_health_state'), [{ name: 'mock_nvr_health_state', labels: { device: 'nvr', state: 'online' }, value: 1 }])
  t.equal(valueOf(samples, 'mock_nvr_health_changes_total', { device: 'nvr' }), 2, 'rebooting by command, then online by the schedule')
  t.equal(valueOf(samples, 'mock_nvr_data_edits_total', { device: 'nvr' }), 0)
  t.equal(valueOf(samples, 'mock_nvr_request_duration_seconds_count', { device: 'nvr' }), 13)
  t.equal(valueOf(samples, 'mock_nvr_request_duration_seconds_bucket', { device: 'nvr', le: '+Inf' }), 13)
  t.ok((valueOf(samples, 'process_resident_memory_bytes') ?? 0) > (valueOf(samples, 'nodejs_heap_size_used_bytes') ?? Infinity), "the serving process's memory, beside the devices'")
  const buckets = samples.filter(sample => sample.name === 'mock_nvr_request_duration_seconds_bucket').map(sample => sample.value)
  t.strictSame(buckets, [...buckets].sort((a, b) => a - b), 'buckets are cumulative')
})

t.test('the metrics need the admin token, and take GET and HEAD only', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA, tokens: [TOKEN], adminToken: ADMIN })
  t.teardown(() => nvr.close())
  for (const headers of [{}, AUTH, { authorization: 'Bearer wrong' }]) {
    const answer = await fetch(`${nvr.url}/__admin/metrics`, { headers })
    t.equal(answer.status, 401)
    t.match(await answer.json(), { result: { httpCode: 401 } })
  }
  const posted = await fetch(`${nvr.url}/__admin/metrics`, { method: 'POST', headers: ADMIN_AUTH })
  t.equal(posted.status, 405)
  t.equal(posted.headers.get('allow'), 'GET, HEAD')
  const withoutAdmin = await startMockNvr({ data: SAMPLE_DATA, tokens: [TOKEN] })
  t.teardown(() => withoutAdmin.close())
  t.equal((await fetch(`${withoutAdmin.url}/__admin/metrics`, { headers: ADMIN_AUTH })).status, 404, 'no admin API, no metrics')
})

t.test('a fleet serves every device\'s metrics on its control address, a state per device', async t => {
  const fleet = await startMockFleet({ count: 3, data: SAMPLE_DATA, tokens: [TOKEN], adminToken: ADMIN, clock: 'manual' })
  t.teardown(() => fleet.close())
  const [first, second, last] = fleet.devices
  await first?.setHealth({ state: 'offline' })
  await second?.setHealth({ state: 'slow', latency: 1 })
  await fetch(`${last?.url as string}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH }).then(async answer => await answer.arrayBuffer())
  const { samples } = await scrape(fleet.controlUrl)
  t.strictSame(samples.filter(sample => sample.name === 'mock_nvr_health_state').map(sample => sample.labels),
    [{ device: 'nvr-001', state: 'offline' }, { device: 'nvr-002', state: 'slow' }, { device: 'nvr-003', state: 'online' }])
  t.strictSame(samples.filter(sample => sample.name === 'mock_nvr_requests_total'), [{ name: 'mock_nvr_requests_total', labels: { device: 'nvr-003', operation: 'list', status: '200' }, value: 1 }],
    'the control address\'s own calls are no device\'s')
  t.equal(valueOf(samples, 'mock_nvr_health_changes_total', { device: 'nvr-001' }), 1)
})

t.test('a proxy counts the requests it forwards, and its state', async t => {
  const target = await startMockNvr({ data: SAMPLE_DATA, tokens: [TOKEN] })
  t.teardown(() => target.close())
  const proxy = await startMockNvr({ proxy: { target: target.url }, adminToken: ADMIN })
  t.teardown(() => proxy.close())
  await fetch(`${proxy.url}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH }).then(async answer => await answer.arrayBuffer())
  const { samples } = await scrape(proxy.url)
  t.equal(valueOf(samples, 'mock_nvr_health_state', { device: 'nvr', state: 'online' }), 1)
  t.equal(valueOf(samples, 'mock_nvr_requests_total', { device: 'nvr', operation: 'list', status: '200' }), 1)
})

t.test('an app that only answers inject(), whose device has no health over time, reports it online', async t => {
  const app = await buildApp({ store: new DataStore(datasetFromData(SAMPLE_DATA)), tokens: new TokenPolicy([TOKEN]), cors: new CorsPolicy(), maxHeaderSize: 65536, adminToken: ADMIN })
  t.teardown(() => app.close())
  const answer = await app.inject({ url: '/__admin/metrics', headers: ADMIN_AUTH })
  t.equal(answer.statusCode, 200)
  t.equal(valueOf(parsePrometheusText(answer.body), 'mock_nvr_health_state', { device: 'nvr', state: 'online' }), 1)
})
