// What admin calls do to a fleet's devices under a steady load (npm run bench:fleet -- --pauses): a fleet from the
// built CLI on the bundled fixtures (or generated data: --generate) at the default journal size; first each device
// answered --per-device times (FILL_CONNECTIONS at once, unmeasured: it fills the journals), then a client polling
// the devices in turn over keep-alive (POLLERS requests in flight, each visit BURST requests on one connection, so
// the server is never the queue and a pause shows as a long answer) for STEADY_MS without scrapes and STEADY_MS with
// GET /__admin/metrics every 5 s; then, the polling going on, each admin call in turn, and the longest device answer
// while it was asked; last, the memory once reset, and once the fleet was left idle. Every phase is bounded by its
// requests or its time, and a run stops its fleet whatever happens.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Client } from 'undici'
import { AUTH_HEADERS, BENCH_TOKEN } from './bench-data.js'
import { FleetProcess } from './fleet-process.js'
import { memoryOf } from './processes.js'

const ADMIN_TOKEN = 'bench-admin'
const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` }
/** Connections open at once while the journals fill: a few hundred at most, well under the open-files limit of both sides. */
const FILL_CONNECTIONS = 200
/** Requests in flight at once while polling: few enough that an answer waits for its device, not for other requests. */
const POLLERS = 2
/** How long each steady phase polls: long enough for two scrapes 5 s apart. */
const STEADY_MS = 11_000
/** How long the memory is left to settle after the reset, the polling going on. */
const SETTLE_MS = 5000
/** How long the fleet is then left idle: V8 gives back what its heap grew to only once the process is idle. */
const IDLE_MS = 45_000
/** Requests a connection sends a device before it moves on to the next device. */
const BURST = 10
const SCRAPE_EVERY_MS = 5000

/** p50, p99 and the longest of device answers, in ms. */
export interface Latencies {
  requests: number
  p50: number
  p99: number
  max: number
}

export interface AdminPause {
  call: string
  /** The admin call's own time, from the request to the last byte (to the ready event of a stream). */
  ms: number
  bytes: number
  /** The longest device answer that overlapped the call. */
  longestDeviceMs: number
  /** Device answers that overlapped it. */
  overlapping: number
}

export interface PauseFigures {
  devices: number
  readyMs: number
  rssReadyMb: number
  rssAfterLoadMb: number
  peakRssMb: number
  rssAfterResetMb: number
  /** Once the load stopped and the fleet was left idle for IDLE_MS. */
  rssIdleMb: number
  perDevice: number
  withoutScrapes: Latencies
  withScrapes: Latencies & { scrapes: number, scrapeMs: number[] }
  admin: AdminPause[]
}

interface Timed { start: number, end: number }

const round = (ms: number) => Math.round(ms * 100) / 100

function latencies (times: readonly Timed[]): Latencies {
  const sorted = times.map(({ start, end }) => end - start).sort((a, b) => a - b)
  const at = (q: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN)
  return { requests: sorted.length, p50: at(0.5), p99: at(0.99), max: round(sorted.at(-1) ?? NaN) }
}

/** Visits of the devices in turn, BURST requests each on one keep-alive connection, by `workers` at once; until `visits` are done, `until` passes or `stop()`. */
class DeviceLoad {
  readonly times: Timed[] = []
  #next = 0
  #stopped = false
  readonly #urls: readonly string[]
  readonly #path: string

  constructor (urls: readonly string[], path: string) {
    this.#urls = urls
    this.#path = path
  }

  async run (workers: number, visits: number, until = Number.POSITIVE_INFINITY): Promise<void> {
    const first = this.#next
    await Promise.all(Array.from({ length: workers }, async () => {
      while (!this.#stopped && this.#next - first < visits && performance.now() < until) {
        const url = this.#urls[this.#next++ % this.#urls.length] as string
        const client = new Client(url, { pipelining: 1 })
        try {
          for (let request = 0; request < BURST; request++) {
            const start = performance.now()
            const answer = await client.request({ path: this.#path, method: 'GET', headers: AUTH_HEADERS })
            await answer.body.dump()
            if (answer.statusCode !== 200) throw new Error(`${url}${this.#path} answered ${answer.statusCode}`)
            this.times.push({ start, end: performance.now() })
          }
        } finally {
          await client.close()
        }
      }
    }))
  }

  stop (): void {
    this.#stopped = true
  }
}

/** A fault every device takes for one request of a camera nobody polls, so the polling goes on unhindered. */
const FAULT = JSON.stringify({ status: 503, times: 1, camera: 'cam-none' })

async function adminCall (control: string, method: 'GET' | 'POST' | 'DELETE', path: string, stream = false, body?: string): Promise<{ start: number, end: number, bytes: number }> {
  const client = new Client(control)
  const start = performance.now()
  try {
    const answer = await client.request({ path, method, headers: body === undefined ? ADMIN : { ...ADMIN, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body }) })
    if (answer.statusCode >= 300) throw new Error(`${method} ${path} answered ${answer.statusCode}`)
    let bytes = 0
    for await (const chunk of answer.body) {
      bytes += (chunk as Buffer).length
      // A stream: up to its ready event, the first thing it sends.
      if (stream && String(chunk).includes('event: ready')) break
    }
    const end = performance.now()
    if (stream) answer.body.destroy()
    return { start, end, bytes }
  } finally {
    await client.destroy()
  }
}

/** One size: its start, its steady load without and with scrapes, then each admin call beside the load. */
export async function measurePauses (cli: string, devices: number, port: number, manifestDir: string, perDevice: number, generate: string | undefined): Promise<PauseFigures> {
  const manifest = join(manifestDir, `pauses-${devices}.json`)
  const command = ['node', cli, ...pausesFlags(port, generate).split(' ').map(flag => flag === 'N' ? String(devices) : flag), '--manifest', manifest]
  const fleet = await FleetProcess.spawn(command, devices)
  try {
    const control = `http://127.0.0.1:${port - 1}`
    const urls = Array.from({ length: devices }, (_, index) => `http://127.0.0.1:${port + index}`)
    // Every device's first camera's list, as the manifest names it.
    const listed = JSON.parse(await readFile(manifest, 'utf8')) as { devices: Array<{ cameras: string[] }> }
    const path = `/nvr/v1/cameras/${encodeURIComponent(listed.devices[0]?.cameras[0] ?? '')}/counting_lines`
    await new DeviceLoad(urls, path).run(FILL_CONNECTIONS, Math.ceil(devices * perDevice / BURST))
    const rssAfterLoadMb = memoryOf(fleet.pid)?.rssMb ?? NaN

    const quiet = new DeviceLoad(urls, path)
    await quiet.run(POLLERS, Number.MAX_SAFE_INTEGER, performance.now() + STEADY_MS)
    const scraped = new DeviceLoad(urls, path)
    const scrapeMs: number[] = []
    const scrapes = (async () => {
      // At the start of the phase, then every SCRAPE_EVERY_MS while it lasts.
      for (let at = 0; at < STEADY_MS; at += SCRAPE_EVERY_MS) {
        const { start, end } = await adminCall(control, 'GET', '/__admin/metrics')
        scrapeMs.push(Math.round(end - start))
        await new Promise(resolve => setTimeout(resolve, Math.max(0, SCRAPE_EVERY_MS - (end - start))))
      }
    })()
    await scraped.run(POLLERS, Number.MAX_SAFE_INTEGER, performance.now() + STEADY_MS)
    await scrapes

    // The load goes on while each admin call is asked in turn, half a second apart; the reset last, as it empties the journals.
    const beside = new DeviceLoad(urls, path)
    const going = beside.run(POLLERS, Number.MAX_SAFE_INTEGER)
    const admin: AdminPause[] = []
    const calls: Array<[string, 'GET' | 'POST' | 'DELETE', string, boolean?]> = [
      ['GET /__admin/metrics', 'GET', '/__admin/metrics'],
      ['GET /__admin/devices', 'GET', '/__admin/devices'],
      ['GET /__admin/requests (a page)', 'GET', '/__admin/requests'],
      ['GET /__admin/events/stream (connect)', 'GET', '/__admin/events/stream', true],
      ['GET /__admin/requests/stream (connect)', 'GET', '/__admin/requests/stream', true],
      ['POST /__admin/faults (every device)', 'POST', '/__admin/faults'],
      ['DELETE /__admin/faults (every device)', 'DELETE', '/__admin/faults'],
      ['POST /__admin/reset', 'POST', '/__admin/reset']
    ]
    try {
      for (const [call, method, path, stream] of calls) {
        await new Promise(resolve => setTimeout(resolve, 500))
        const { start, end, bytes } = await adminCall(control, method, path, stream, method === 'POST' && path.endsWith('faults') ? FAULT : undefined)
        // Answers still in flight when the call ended are counted once they end.
        await new Promise(resolve => setTimeout(resolve, 200))
        const overlapping = beside.times.filter(time => time.end > start && time.start < end)
        admin.push({ call, ms: round(end - start), bytes, longestDeviceMs: round(Math.max(0, ...overlapping.map(time => time.end - time.start))), overlapping: overlapping.length })
      }
      await new Promise(resolve => setTimeout(resolve, SETTLE_MS))
    } finally {
      beside.stop()
      await going
    }
    const memory = memoryOf(fleet.pid)
    await new Promise(resolve => setTimeout(resolve, IDLE_MS))
    const rssIdleMb = memoryOf(fleet.pid)?.rssMb ?? NaN
    const withScrapes = { ...latencies(scraped.times), scrapes: scrapeMs.length, scrapeMs }
    return { devices, readyMs: fleet.start.readyMs, rssReadyMb: fleet.start.rssMb, rssAfterLoadMb, peakRssMb: memory?.peakRssMb ?? NaN, rssAfterResetMb: memory?.rssMb ?? NaN, rssIdleMb, perDevice, withoutScrapes: latencies(quiet.times), withScrapes, admin }
  } finally {
    await fleet.stop()
  }
}

// The fleet's flags, N for the number of devices.
function pausesFlags (port: number, generate: string | undefined): string {
  return `--devices N --port ${port} --token ${BENCH_TOKEN} --admin-token ${ADMIN_TOKEN} --log-level warn${generate === undefined ? '' : ` --generate ${generate}`}`
}

/** The figures as text: a table of the loads, one of the admin calls. */
export function formatPauses (figures: readonly PauseFigures[], port: number, generate: string | undefined): string {
  const lines = [
    '',
    `Admin calls beside a load: node dist/cli.js ${pausesFlags(port, generate)}`,
    `(the default journal size); each device answered P times first (${FILL_CONNECTIONS} connections), then a client polls the devices in turn (${POLLERS} requests in flight,`,
    `${BURST} a device a visit, keep-alive) ${STEADY_MS / 1000} s without scrapes and ${STEADY_MS / 1000} s with /__admin/metrics every ${SCRAPE_EVERY_MS / 1000} s, then beside each admin call`,
    ''
  ]
  for (const size of figures) {
    lines.push(`${size.devices.toLocaleString('en-US')} devices: ready in ${size.readyMs} ms; RSS ${size.rssReadyMb} MB ready, ${size.rssAfterLoadMb} MB once each answered ${size.perDevice}, peak ${size.peakRssMb} MB, ${size.rssAfterResetMb} MB ${SETTLE_MS / 1000} s after the reset, ${size.rssIdleMb} MB once idle ${IDLE_MS / 1000} s`)
    lines.push(`  steady load, no scrapes: ${size.withoutScrapes.requests} answers, p50 ${size.withoutScrapes.p50} ms, p99 ${size.withoutScrapes.p99} ms, longest ${size.withoutScrapes.max} ms`)
    lines.push(`  steady load, scraped every ${SCRAPE_EVERY_MS / 1000} s: ${size.withScrapes.requests} answers, p50 ${size.withScrapes.p50} ms, p99 ${size.withScrapes.p99} ms, longest ${size.withScrapes.max} ms; ${size.withScrapes.scrapes} scrapes of ${size.withScrapes.scrapeMs.join(', ')} ms`)
    for (const call of size.admin) lines.push(`  ${call.call}: ${call.ms} ms, ${call.bytes.toLocaleString('en-US')} bytes; longest device answer meanwhile ${call.longestDeviceMs} ms (of ${call.overlapping})`)
  }
  return `${lines.join('\n')}\n`
}
