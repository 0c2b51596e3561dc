import t from 'tap'
import { makeDevice } from '../../src/device/make-device.js'
import { resolveOptions } from '../../src/config/options.js'
import { DataStore } from '../../src/data/data-store.js'
import { datasetFromData } from '../../src/data/dataset.js'
import { ManualClock } from '../../src/util/clock.js'
import { metricsText } from '../../src/metrics/device-metrics.js'
import { SAMPLE_DATA } from '../helpers/app.js'
import { parsePrometheusText } from '../helpers/prometheus-text.js'

// The process's figures held still, so that two scrapes can be compared.
const FIGURES = () => ({ cpuSeconds: 1, startTimeSeconds: 2, residentBytes: 3, heapTotalBytes: 4, heapUsedBytes: 5, externalBytes: 6 })

// Devices made as a fleet makes them, each having answered a request or two, without a port: what a scrape reads.
function devices (count: number) {
  const options = resolveOptions({ data: SAMPLE_DATA })
  const clock = new ManualClock(0)
  return Array.from({ length: count }, (_, index) => {
    const device = makeDevice(`nvr-${String(index + 1).padStart(3, '0')}`, options, new DataStore(datasetFromData(SAMPLE_DATA)), { clock })
    for (let request = 0; request <= index % 3; request++) device.recorder.answered({ method: 'GET', url: '/nvr/v1/cameras', params: {} }, 'req-1', request === 2 ? 503 : 200, 0.4)
    return device
  })
}

async function scrape (list: ReturnType<typeof devices>, devicesPerTurn: number) {
  let turns = 0
  let text = ''
  const chunks: string[] = []
  for await (const chunk of metricsText(list, { perTurn: devicesPerTurn, turn: async () => { turns++ } }, FIGURES)) {
    chunks.push(chunk)
    text += chunk
  }
  return { text, turns, chunks }
}

t.test('a scrape of many devices is written a slice of devices per turn of the event loop', async t => {
  const list = devices(10)
  const whole = await scrape(list, 1000)
  const stepped = await scrape(list, 3)
  t.equal(whole.turns, 0, 'devices that fit one slice are written at once')
  // Six families of ten devices, three at a time: four slices a family, a turn between slices and after each family.
  t.equal(stepped.turns, 6 * 4)
  t.equal(stepped.text, whole.text, 'the same text, whatever the slices')
  t.ok(stepped.chunks.length >= 24)
  const samples = parsePrometheusText(stepped.text)
  t.equal(samples.filter(sample => sample.name === 'mock_nvr_health_state').length, 10)
  t.equal(samples.filter(sample => sample.name === 'mock_nvr_requests_total').length, 10 + 3, 'one series a status a device')
  t.equal(stepped.text.match(/^# HELP /gm)?.length, 6 + 6, "the devices' six families, the process's six")
  t.equal(stepped.text.match(/^# TYPE /gm)?.length, 6 + 6)
  t.match(stepped.text, /\n\n# HELP process_cpu_seconds_total [^\n]+\n# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 1\n/, "the process's last, once")
  t.ok(stepped.text.endsWith('\n') && !stepped.text.endsWith('\n\n'))
  t.match(stepped.text, /\n\n# HELP mock_nvr_faults_injected_total /, 'the families a blank line apart')
})

t.test('the default steps wait for the next turn: a timer due now runs in the middle of a scrape', async t => {
  const list = devices(3)
  let ranMeanwhile = false
  const chunks: string[] = []
  for await (const chunk of metricsText(list, { perTurn: 1 }, FIGURES)) {
    if (chunks.length === 0) setImmediate(() => { ranMeanwhile = true })
    chunks.push(chunk)
  }
  t.ok(ranMeanwhile)
  t.equal(chunks.join(''), (await scrape(list, 10)).text)
})

t.test('a label value with a quote, a backslash or a new line is escaped as the text format says', async t => {
  const [device] = devices(1)
  Object.defineProperty(device, 'name', { value: 'a"b\\c\nd' })
  const { text } = await scrape([device as NonNullable<typeof device>], 10)
  t.match(text, 'mock_nvr_health_state{device="a\\"b\\\\c\\nd",state="online"} 1')
})

t.test('HEAD /__admin/metrics answers the headers alone, with no scrape', async t => {
  const { buildApp } = await import('../../src/index.js')
  const { TokenPolicy } = await import('../../src/wire/token-policy.js')
  const { CorsPolicy } = await import('../../src/wire/cors.js')
  const app = await buildApp({ store: new DataStore(datasetFromData(SAMPLE_DATA)), tokens: new TokenPolicy(['t']), cors: new CorsPolicy(), maxHeaderSize: 65536, adminToken: 'admin' })
  t.teardown(() => app.close())
  const answer = await app.inject({ method: 'HEAD', url: '/__admin/metrics', headers: { authorization: 'Bearer admin' } })
  t.equal(answer.statusCode, 200)
  t.equal(answer.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8')
  t.equal(answer.body, '')
})
