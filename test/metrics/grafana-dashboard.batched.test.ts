import { readFileSync } from 'node:fs'
import t from 'tap'
import { parse } from 'yaml'
import { startMockNvr } from '../../src/index.js'
import { METRICS_PATH } from '../../src/admin-api/metrics-route.js'
import { readDoc } from '../helpers/docs.js'
import { AUTH, SAMPLE_DATA, TOKEN } from '../helpers/app.js'
import { DATASOURCE, dashboardProblems, type Dashboard, type Panel } from '../helpers/grafana-dashboard.js'
import { parsePrometheusText, type Sample } from '../helpers/prometheus-text.js'
import { queryParts } from '../helpers/promql.js'

const DASHBOARD_FILE = new URL('../../examples/grafana/mock-nvr-dashboard.json', import.meta.url)
const PROMETHEUS_FILE = new URL('../../examples/grafana/prometheus.yml', import.meta.url)
const ADMIN = 'admin-secret'

const dashboard = JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')) as Dashboard

/** What /__admin/metrics serves once a request was answered and one was changed by a fault: every metric has a series. */
async function servedSamples (): Promise<Sample[]> {
  const nvr = await startMockNvr({ data: SAMPLE_DATA, tokens: [TOKEN], adminToken: ADMIN, clock: 'manual' })
  try {
    nvr.injectFault({ status: 503, times: 1 })
    for (let count = 0; count < 2; count++) await (await fetch(`${nvr.url}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH })).arrayBuffer()
    const answer = await fetch(`${nvr.url}/__admin/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } })
    return parsePrometheusText(await answer.text())
  } finally {
    await nvr.close()
  }
}

const samples = await servedSamples()
const copy = (): Dashboard => structuredClone(dashboard)
const panel = (copied: Dashboard, title: string): Panel => {
  const found = copied.panels?.find(candidate => candidate.title === title)
  if (found === undefined) throw new Error(`no panel ${title}`)
  return found
}
const firstTarget = (copied: Dashboard, title: string) => (panel(copied, title).targets ?? [])[0] as { expr: string, legendFormat: string }

t.test('the Grafana dashboard in examples/ queries only metrics and labels that /__admin/metrics serves', async t => {
  t.strictSame(dashboardProblems(dashboard, samples), [])
  const panels = dashboard.panels ?? []
  t.ok(panels.length >= 10, `${panels.length} panels`)
  const queried = new Set(panels.flatMap(each => each.targets ?? []).flatMap(target => queryParts(target.expr ?? '').selectors.map(selector => selector.metric)))
  t.strictSame([...queried].sort(), ['mock_nvr_data_edits_total', 'mock_nvr_faults_injected_total', 'mock_nvr_health_changes_total', 'mock_nvr_health_state',
    'mock_nvr_request_duration_seconds_bucket', 'mock_nvr_requests_total'], 'every metric of docs/metrics.md is on it')
})

t.test('the checks fail a dashboard that breaks', async t => {
  const broken: Array<[string, (copied: Dashboard) => void, RegExp]> = [
    ['a misspelt metric', copied => { firstTarget(copied, 'Requests/s by status').expr = firstTarget(copied, 'Requests/s by status').expr.replace('mock_nvr_requests_total', 'mock_nvr_request_total') }, /mock_nvr_request_total is not a metric/],
    ['a label the metric lacks, in a by', copied => { firstTarget(copied, 'Requests/s by status').expr = firstTarget(copied, 'Requests/s by status').expr.replace('by (status)', 'by (kind)') }, /mock_nvr_requests_total has no label kind/],
    ['a label the metric lacks, in a matcher', copied => { firstTarget(copied, 'Data edits/s').expr = firstTarget(copied, 'Data edits/s').expr.replace('{', '{status="200", ') }, /mock_nvr_data_edits_total has no label status/],
    ['a panel the variable does not filter', copied => { firstTarget(copied, 'Devices by health state').expr = 'count by (state) (mock_nvr_health_state)' }, /mock_nvr_health_state is not filtered by device=~"\$device"/],
    ['a panel without a query', copied => { panel(copied, 'Data edits/s').targets = [] }, /panel "Data edits\/s": a target without a query/],
    ['a legend naming a label the query drops', copied => { firstTarget(copied, 'Requests/s by status').legendFormat = '{{device}}' }, /the legend names \{\{device\}\}/],
    ['a query that cannot be read', copied => { firstTarget(copied, 'Data edits/s').expr = 'sum(rate(mock_nvr_data_edits_total{device=~"$device"}[1m])' }, /unclosed \(/],
    ['no device variable', copied => { copied.templating = { list: [] } }, /no template variable device/],
    ['a variable over a label the metric lacks', copied => { (copied.templating?.list ?? [])[0] = { name: 'device', type: 'query', datasource: { uid: DATASOURCE }, query: 'label_values(mock_nvr_health_state, camera)' } }, /mock_nvr_health_state has no label camera/],
    ['another datasource', copied => { panel(copied, 'Data edits/s').datasource = { type: 'prometheus', uid: 'P1809F7CD0C75ACF3' } }, /its datasource is not \$\{DS_PROMETHEUS\}/],
    ['no datasource input', copied => { copied.__inputs = [] }, /no Prometheus datasource input/],
    ['overlapping panels', copied => { panel(copied, 'Data edits/s').gridPos = { ...panel(copied, 'Data edits/s').gridPos, x: 14 } }, /overlap/]
  ]
  for (const [what, breakIt, expected] of broken) {
    const copied = copy()
    breakIt(copied)
    t.match(dashboardProblems(copied, samples).join('\n'), expected, what)
  }
})

t.test('queries are read for their selectors, matchers and grouping', async t => {
  t.strictSame(queryParts('histogram_quantile(0.99, sum by (le) (rate(m_bucket{device=~"$device", le!="+Inf"}[$__rate_interval])))'), {
    selectors: [{ metric: 'm_bucket', matchers: [{ label: 'device', op: '=~', value: '$device' }, { label: 'le', op: '!=', value: '+Inf' }] }],
    grouping: ['le'],
    dropsLabels: false
  })
  t.strictSame(queryParts('(sum(rate(a[1m])) or vector(0)) / sum(rate(b{s="x"}[1m])) * 1e2'), {
    selectors: [{ metric: 'a', matchers: [] }, { metric: 'b', matchers: [{ label: 's', op: '=', value: 'x' }] }],
    grouping: [],
    dropsLabels: true
  })
  t.equal(queryParts('sum(rate(a[1m])) by (status)').dropsLabels, false, 'by after the arguments')
  t.equal(queryParts('topk(10, a)').dropsLabels, false, 'topk keeps its series')
  for (const query of ['sum(a', '{device="x"}', 'a{device=x}', 'a + "text"']) t.throws(() => queryParts(query), query)
})

t.test('the scrape job in examples/ is the one docs/metrics.md shows: the metrics, with the admin token, slower than a scrape', async t => {
  const example = parse(readFileSync(PROMETHEUS_FILE, 'utf8')) as { scrape_configs: Array<Record<string, unknown>> }
  const shown = /```yaml\n([\s\S]*?)```/.exec(readDoc('docs/metrics.md'))?.[1]
  t.strictSame(parse(shown ?? ''), example)
  const [job] = example.scrape_configs
  t.match(job, { metrics_path: METRICS_PATH, authorization: { type: 'Bearer' } })
  const seconds = (duration: unknown) => Number(/^(\d+)s$/.exec(String(duration))?.[1])
  t.ok(seconds(job?.scrape_timeout) >= 10, 'a timeout of 10 s or more: the scrape of 10,000 busy devices takes about a second (docs/metrics.md)')
  t.ok(seconds(job?.scrape_timeout) <= seconds(job?.scrape_interval), 'Prometheus refuses a timeout longer than the interval')
})
