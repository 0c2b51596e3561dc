import t from 'tap'
import { processFigures, processMetricsText } from '../../src/metrics/process-metrics.js'
import { parsePrometheusText, valueOf } from '../helpers/prometheus-text.js'

const FIGURES = { cpuSeconds: 12.5, startTimeSeconds: 1_800_000_000.25, residentBytes: 215_000_000, heapTotalBytes: 170_000_000, heapUsedBytes: 96_000_000, externalBytes: 4_000_000 }

t.test("the process's families, under the names Prometheus's client libraries give them", async t => {
  const text = processMetricsText(FIGURES)
  const samples = parsePrometheusText(text)
  t.equal(valueOf(samples, 'process_cpu_seconds_total'), 12.5)
  t.equal(valueOf(samples, 'process_start_time_seconds'), 1_800_000_000.25)
  t.equal(valueOf(samples, 'process_resident_memory_bytes'), 215_000_000)
  t.equal(valueOf(samples, 'nodejs_heap_size_total_bytes'), 170_000_000)
  t.equal(valueOf(samples, 'nodejs_heap_size_used_bytes'), 96_000_000)
  t.equal(valueOf(samples, 'nodejs_external_memory_bytes'), 4_000_000)
  t.equal(samples.length, 6, 'one series a family, no labels')
  t.match(text, /^\n# HELP process_cpu_seconds_total .+\n# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 12\.5\n/)
  t.match(text, /\n# TYPE process_resident_memory_bytes gauge\n/)
  t.ok(text.startsWith('\n# HELP ') && text.endsWith('\n') && !text.endsWith('\n\n'), 'a blank line before it, as between the families before')
})

t.test("this process's figures", async t => {
  const before = process.cpuUsage()
  const figures = processFigures()
  t.ok(figures.cpuSeconds >= (before.user + before.system) / 1e6)
  t.ok(Math.abs(figures.startTimeSeconds - (Date.now() - performance.now()) / 1000) < 1, 'when the process started, in seconds since the epoch')
  t.ok(figures.residentBytes > figures.heapUsedBytes && figures.heapTotalBytes >= figures.heapUsedBytes && figures.externalBytes > 0)
})
