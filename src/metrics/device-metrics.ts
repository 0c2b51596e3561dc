import { Readable } from 'node:stream'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { Device } from '../device/device.js'
import type { Steps } from '../util/steps.js'
import { INJECTED_KINDS } from '../control/faults/fault-control.js'
import { DROPPED, LATENCY_BUCKETS, OPERATION_LABELS } from '../control/request-counts.js'
import { processFigures, processMetricsText, type ProcessFigures } from './process-metrics.js'

/** Prometheus's text format, version 0.0.4: what every Prometheus server and client scrapes. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

/**
 * Devices written per turn of the event loop. A busy device is some twenty lines of a family; 250 devices are a few
 * milliseconds at most, so a scrape of 10,000 devices never holds a device's answer longer than that.
 */
const SCRAPED_DEVICES_PER_TURN = 250

/** One metric family, read from the devices when it is scraped: a request costs nothing of it. */
interface ScrapedMetric {
  name: string
  help: string
  type: 'counter' | 'gauge' | 'histogram'
  /** Appends a device's lines of this family, each ending in a newline. */
  lines: (device: Device, out: string[]) => void
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
    lines: ({ name, recorder }, out) => {
      for (const [status, counts] of recorder.counts.byStatus) {
        OPERATION_LABELS.forEach((operation, index) => {
          const value = counts[index] as number
          if (value !== 0) out.push(`mock_nvr_requests_total{device="${label(name)}",operation="${operation}",status="${status === DROPPED ? 'dropped' : String(status)}"} ${value}\n`)
        })
      }
    }
  },
  {
    name: 'mock_nvr_faults_injected_total',
    help: 'Requests whose answer an injected fault or a Prefer header changed or delayed, by kind',
    type: 'counter',
    lines: ({ name, faultControl }, out) => {
      for (const kind of INJECTED_KINDS) {
        const value = faultControl.injected[kind]
        if (value !== 0) out.push(`mock_nvr_faults_injected_total{device="${label(name)}",kind="${kind}"} ${value}\n`)
      }
    }
  },
  {
    name: 'mock_nvr_health_state',
    help: 'The health state a device is in now: 1, with the state as a label',
    type: 'gauge',
    lines: ({ name, health }, out) => { out.push(`mock_nvr_health_state{device="${label(name)}",state="${health?.state ?? 'online'}"} 1\n`) }
  },
  {
    name: 'mock_nvr_health_changes_total',
    help: 'Changes of a device\'s health, by its schedule, a command, a reset or a taken port',
    type: 'counter',
    lines: ({ name, events }, out) => { out.push(`mock_nvr_health_changes_total{device="${label(name)}"} ${events.totals.health}\n`) }
  },
  {
    name: 'mock_nvr_data_edits_total',
    help: 'Edits of a device\'s data by its drift',
    type: 'counter',
    lines: ({ name, events }, out) => { out.push(`mock_nvr_data_edits_total{device="${label(name)}"} ${events.totals.data}\n`) }
  },
  {
    name: 'mock_nvr_request_duration_seconds',
    help: 'How long a device took to answer, waits for latency, faults and health included',
    type: 'histogram',
    lines: ({ name, recorder: { counts: { buckets, seconds, total } } }, out) => {
      if (total === 0) return
      const device = label(name)
      let cumulative = 0
      LATENCY_BUCKETS.forEach((bound, index) => {
        cumulative += buckets[index] as number
        out.push(`mock_nvr_request_duration_seconds_bucket{device="${device}",le="${bound}"} ${cumulative}\n`)
      })
      out.push(`mock_nvr_request_duration_seconds_bucket{device="${device}",le="+Inf"} ${total}\n`,
        `mock_nvr_request_duration_seconds_sum{device="${device}"} ${seconds}\n`,
        `mock_nvr_request_duration_seconds_count{device="${device}"} ${total}\n`)
    }
  }
]

// The text format's escapes of a label value: a backslash, a double quote, a new line.
function label (value: string): string {
  return /[\\"\n]/.test(value) ? value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n') : value
}

/**
 * The devices' metrics in Prometheus's text format, a slice of devices at a time with a turn of the event loop
 * between slices: each family's HELP and TYPE, then its series device by device, the families a blank line apart;
 * last the process's own (`figures`: this process's now, unless a test says).
 */
export async function * metricsText (devices: readonly Device[], { perTurn: devicesPerTurn = SCRAPED_DEVICES_PER_TURN, turn = nextTurn }: Steps = {}, figures: () => ProcessFigures = processFigures): AsyncGenerator<string> {
  for (const [index, metric] of METRICS.entries()) {
    const out: string[] = [`${index === 0 ? '' : '\n'}# HELP ${metric.name} ${metric.help}\n# TYPE ${metric.name} ${metric.type}\n`]
    for (let from = 0; from < devices.length; from += devicesPerTurn) {
      if (from > 0) {
        yield out.join('')
        out.length = 0
        await turn()
      }
      const to = Math.min(devices.length, from + devicesPerTurn)
      for (let at = from; at < to; at++) metric.lines(devices[at] as Device, out)
    }
    yield out.join('')
    if (devices.length > devicesPerTurn) await turn()
  }
  yield processMetricsText(figures())
}

/** The metrics text as a stream a reply can send: read as the socket takes it, a slice of devices per turn. */
export function metricsStream (devices: readonly Device[]): Readable {
  return Readable.from(metricsText(devices), { objectMode: false })
}
