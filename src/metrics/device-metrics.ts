import { Registry, type MetricValue } from 'prom-client'
import type { Device } from '../device/device.js'
import { INJECTED_KINDS } from '../control/faults/fault-control.js'
import { DROPPED, LATENCY_BUCKETS, OPERATION_LABELS } from '../control/request-counts.js'

type Values = Array<MetricValue<string> & { metricName?: string }>

/** One metric, read from the devices when it is scraped: a request costs nothing of prom-client's. */
interface ScrapedMetric {
  name: string
  help: string
  /** As the text format names it (prom-client's typings give an enum its code never reads). */
  type: 'counter' | 'gauge' | 'histogram'
  values: (devices: readonly Device[]) => Values
}

/**
 * The metrics of mock-nvr, per device. Labels: device (its name), operation (list, retrieve, other), status (the
 * HTTP status, or "dropped"), kind (status, drop, malformed, delay, prefer), state (the health state), le. A series
 * exists once it has a count, and a device has one state series, its state now, so a fleet of 10,000 quiet devices
 * is a scrape of some 10,000 lines.
 */
const METRICS: readonly ScrapedMetric[] = [
  {
    name: 'mock_nvr_requests_total',
    help: 'Requests a device answered (or dropped), by operation and status; admin calls are not counted',
    type: 'counter',
    values: devices => devices.flatMap(({ name, recorder }) => [...recorder.counts.byStatus].flatMap(([status, counts]) =>
      OPERATION_LABELS.flatMap((operation, index) => counts[index] === 0 ? [] : [{ labels: { device: name, operation, status: status === DROPPED ? 'dropped' : String(status) }, value: counts[index] as number }])))
  },
  {
    name: 'mock_nvr_faults_injected_total',
    help: 'Requests whose answer an injected fault or a Prefer header changed or delayed, by kind',
    type: 'counter',
    values: devices => devices.flatMap(({ name, faultControl }) => INJECTED_KINDS.flatMap(kind => {
      const value = faultControl.injected[kind]
      return value === 0 ? [] : [{ labels: { device: name, kind }, value }]
    }))
  },
  {
    name: 'mock_nvr_health_state',
    help: 'The health state a device is in now: 1, with the state as a label',
    type: 'gauge',
    values: devices => devices.map(({ name, health }) => ({ labels: { device: name, state: health?.state ?? 'online' }, value: 1 }))
  },
  {
    name: 'mock_nvr_health_changes_total',
    help: 'Changes of a device\'s health, by its schedule, a command, a reset or a taken port',
    type: 'counter',
    values: devices => devices.map(({ name, events }) => ({ labels: { device: name }, value: events.totals.health }))
  },
  {
    name: 'mock_nvr_data_edits_total',
    help: 'Edits of a device\'s data by its drift',
    type: 'counter',
    values: devices => devices.map(({ name, events }) => ({ labels: { device: name }, value: events.totals.data }))
  },
  {
    name: 'mock_nvr_request_duration_seconds',
    help: 'How long a device took to answer, waits for latency, faults and health included',
    type: 'histogram',
    values: devices => devices.flatMap(({ name, recorder }) => histogramValues(name, recorder.counts))
  }
]

function histogramValues (device: string, { buckets, seconds, total }: { buckets: Float64Array, seconds: number, total: number }): Values {
  if (total === 0) return []
  const values: Values = []
  let cumulative = 0
  LATENCY_BUCKETS.forEach((bound, index) => {
    cumulative += buckets[index] as number
    values.push({ metricName: 'mock_nvr_request_duration_seconds_bucket', labels: { device, le: bound }, value: cumulative })
  })
  values.push({ metricName: 'mock_nvr_request_duration_seconds_bucket', labels: { device, le: '+Inf' }, value: total })
  values.push({ metricName: 'mock_nvr_request_duration_seconds_sum', labels: { device }, value: seconds })
  values.push({ metricName: 'mock_nvr_request_duration_seconds_count', labels: { device }, value: total })
  return values
}

/** A registry of its own (never prom-client's global one: a process may run several mocks) over these devices. */
export function metricsRegistry (devices: () => readonly Device[]): Registry {
  const registry = new Registry()
  for (const metric of METRICS) {
    // What the registry reads of a metric: its name, and get() for its help, type and values.
    registry.registerMetric({
      name: metric.name,
      get: async () => ({ name: metric.name, help: metric.help, type: metric.type, values: metric.values(devices()), aggregator: 'sum' })
    } as never)
  }
  return registry
}
