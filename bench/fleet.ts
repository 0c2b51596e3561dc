// npm run bench:fleet [-- --counts 1000,5000,10000] [--rounds R] [--port P] [--cli FILE] [--json] [--answered] [--load [--loaded N] [--duration S]]
// npm run bench:fleet -- --pauses [--counts 1000,10000] [--per-device 100] [--port P] [--generate WxH]: admin calls beside a steady load (fleet-pauses.ts), on the bundled fixtures or generated data
// Fleets from the built CLI on the bundled fixtures, one size after another: how long each takes to be ready (its
// ready line), the CPU and memory it took, the memory per device, and the metrics scrape of the largest; the sizes
// are taken in turn, round after round, and each figure is the median of its rounds. With --answered, the largest is
// scraped again once each of its devices has answered a list (a busy fleet's series). With --load, how many
// requests per second 100 devices serve together against one device, on the same route.
import autocannon from 'autocannon'
import { existsSync, rmSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { AUTH_HEADERS, BENCH_TOKEN } from './bench-data.js'
import { fetchOnce, FleetProcess, openFilesLimit, type FleetStart } from './fleet-process.js'
import { canPin, pinLoadGenerator, ServerProcess } from './processes.js'
import { runMain } from './run-main.js'
import { formatPauses, measurePauses } from './fleet-pauses.js'

const { values } = parseArgs({
  options: {
    counts: { type: 'string', default: '1000,5000,10000' },
    rounds: { type: 'string', default: '3' },
    port: { type: 'string', default: '20001' },
    // Another build's CLI, e.g. of a worktree at an older commit, to compare it in the same sitting.
    cli: { type: 'string' },
    json: { type: 'boolean', default: false },
    answered: { type: 'boolean', default: false },
    load: { type: 'boolean', default: false },
    loaded: { type: 'string', default: '100' },
    duration: { type: 'string', default: '5' },
    pauses: { type: 'boolean', default: false },
    'per-device': { type: 'string', default: '100' },
    // With --pauses: each device serves generated data of its own (e.g. 1x3) instead of the bundled fixtures.
    generate: { type: 'string' }
  }
})

const CLI = values.cli === undefined ? fileURLToPath(new URL('../dist/cli.js', import.meta.url)) : resolve(values.cli)
const ADMIN_TOKEN = 'bench-admin'
// Devices probed once a fleet is ready, spread from the first to the last: the ready line says every one listens.
const PROBED = 16
const SCRAPES = 3
// Requests in flight at once while every device answers one, for --answered.
const ANSWERING = 32
// What a fleet holds open besides its devices' listeners: the control address, stdio, the manifest, Node's own.
const OTHER_FILES = 64
// Under load every device serves one generated camera of three lines (the bundled fixtures' ids may change).
const LOAD_DATA = ['--generate', '1x3']
const LOAD_PATH = '/nvr/v1/cameras/cam-1/counting_lines'
// Below Linux's ephemeral ports (32768 and up), which outgoing connections take, and away from 8080.
const LOAD_PORT = 20_000 + Math.floor(Math.random() * 9_000)

function whole (name: 'loaded' | 'duration' | 'port' | 'rounds' | 'per-device', text: string): number {
  const value = Number(text)
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number from 1, not '${text}'`)
  return value
}

function counts (): number[] {
  const sizes = (values.counts as string).split(',').map(text => Number(text))
  if (sizes.some(size => !Number.isInteger(size) || size < 1 || size > 20_000)) throw new Error(`--counts takes fleet sizes from 1 to 20000, comma-separated, not '${values.counts}'`)
  return [...new Set(sizes)].sort((a, b) => a - b)
}

const load1 = () => Math.round((loadavg()[0] as number) * 100) / 100

interface Measured extends FleetStart {
  /** The one-minute load average when it was ready. */
  loadAverage: number
}

/** The median of a size's rounds, with every round, and what a device adds to the smallest size. */
interface SizeFigures extends Measured {
  rounds: Measured[]
  /** (RSS(N) − RSS(smallest)) / (N − smallest), in KB, at the ready line; the same from the peaks. */
  kbPerDevice?: number
  kbPerDeviceFromPeaks?: number
  /** (CPU(N) − CPU(smallest)) / (N − smallest), in µs: the start's CPU time per device. */
  cpuMicrosPerDevice?: number
}

function median (values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

interface Scrape {
  devices: number
  bytes: number
  lines: number
  /** Each scrape's time, from the request to the last byte, in ms. */
  ms: number[]
}

/**
 * Starts the fleet, checks that it serves (the manifest, a sample of devices), scrapes its metrics if asked (idle,
 * then with `answered` once every device has answered a list), and stops it.
 */
async function measure (devices: number, port: number, manifestDir: string, scrape: boolean, answered = false): Promise<{ start: Measured, scrape?: Scrape, answered?: Scrape }> {
  const manifest = join(manifestDir, `fleet-${devices}.json`)
  const command = ['node', CLI, '--devices', String(devices), '--port', String(port), '--token', BENCH_TOKEN, '--admin-token', ADMIN_TOKEN, '--manifest', manifest]
  const fleet = await FleetProcess.spawn(command, devices)
  try {
    const start = { ...fleet.start, loadAverage: load1() }
    const listed = (JSON.parse(await readFile(manifest, 'utf8')) as { devices: Array<{ url: string, cameras: string[] }> }).devices
    if (listed.length !== devices) throw new Error(`the manifest lists ${listed.length} devices, not ${devices}`)
    const list = async (device: { url: string, cameras: string[] }) => {
      const answer = await fetchOnce(`${device.url}/nvr/v1/cameras/${encodeURIComponent(device.cameras[0] as string)}/counting_lines`, AUTH_HEADERS)
      if (answer.status !== 200) throw new Error(`${device.url} answered ${answer.status}, not 200`)
    }
    for (let probe = 0; probe < Math.min(PROBED, devices); probe++) await list(listed[Math.round(probe * (devices - 1) / Math.max(1, PROBED - 1))] as { url: string, cameras: string[] })
    if (!scrape) return { start }
    const idle = await scrapeMetrics(devices, port)
    if (!answered) return { start, scrape: idle }
    let next = 0
    await Promise.all(Array.from({ length: ANSWERING }, async () => {
      while (next < listed.length) await list(listed[next++] as { url: string, cameras: string[] })
    }))
    return { start, scrape: idle, answered: await scrapeMetrics(devices, port) }
  } finally {
    await fleet.stop()
  }
}

/** GET /__admin/metrics of the fleet, SCRAPES times: the last one's bytes and lines, and each one's time. */
async function scrapeMetrics (devices: number, port: number): Promise<Scrape> {
  const ms: number[] = []
  let text = ''
  for (let round = 0; round < SCRAPES; round++) {
    const answer = await fetchOnce(`http://127.0.0.1:${port - 1}/__admin/metrics`, { authorization: `Bearer ${ADMIN_TOKEN}` })
    if (answer.status !== 200) throw new Error(`GET /__admin/metrics answered ${answer.status}, not 200`)
    ms.push(Math.round(answer.ms))
    text = answer.body
  }
  return { devices, bytes: Buffer.byteLength(text), lines: text.split('\n').filter(line => line !== '').length, ms }
}

/** Requests per second, and the server's own CPU time per request (µs): what a device costs, whatever the client can send. */
async function loadOf (server: ServerProcess, urls: string[], connections: number, duration: number): Promise<{ rps: number, cpuMicros: number | undefined }> {
  const options = { url: urls as unknown as string, connections, duration, headers: AUTH_HEADERS, requests: [{ method: 'GET' as const, path: LOAD_PATH }] }
  await autocannon({ ...options, duration: 1 })
  const cpuBefore = server.cpuSeconds()
  const result = await autocannon(options)
  const cpuAfter = server.cpuSeconds()
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} answers were not 2xx and ${result.errors} failed`)
  const cpuMicros = cpuBefore === undefined || cpuAfter === undefined ? undefined : Math.round((cpuAfter - cpuBefore) * 1e6 / result['2xx'])
  return { rps: Math.round(result['2xx'] / result.duration), cpuMicros }
}

/** 100 devices (one connection each) against one device (all connections), and the fleet's first device alone. */
async function compareUnderLoad (loaded: number, duration: number) {
  const pin = canPin(cpus().length)
  if (pin) pinLoadGenerator()
  const command = (devices: number) => ['node', CLI, '--devices', String(devices), '--port', String(LOAD_PORT), '--token', BENCH_TOKEN, '--log-level', 'warn', '--journal-size', '0', ...LOAD_DATA]
  const start = async (devices: number) => await ServerProcess.start({ command: command(devices), port: LOAD_PORT + devices - 1, probePath: '/healthz', headers: {}, pin })
  const many = await start(loaded)
  let manyLoad, firstLoad
  try {
    manyLoad = await loadOf(many, Array.from({ length: loaded }, (_, index) => `http://127.0.0.1:${LOAD_PORT + index}`), loaded, duration)
    // The same fleet with every connection on its first device: what the other devices' mere presence costs.
    firstLoad = await loadOf(many, [`http://127.0.0.1:${LOAD_PORT}`], loaded, duration)
  } finally {
    await many.stop()
  }
  const one = await start(1)
  let oneLoad
  try {
    oneLoad = await loadOf(one, [`http://127.0.0.1:${LOAD_PORT}`], loaded, duration)
  } finally {
    await one.stop()
  }
  const cpuRatio = manyLoad.cpuMicros === undefined || oneLoad.cpuMicros === undefined ? undefined : Math.round(oneLoad.cpuMicros / manyLoad.cpuMicros * 100) / 100
  return {
    route: LOAD_PATH,
    connections: loaded,
    seconds: duration,
    pinned: pin,
    devicesRps: manyLoad.rps,
    oneDeviceRps: oneLoad.rps,
    ratio: Math.round(manyLoad.rps / oneLoad.rps * 100) / 100,
    devicesCpuMicrosPerRequest: manyLoad.cpuMicros,
    oneDeviceCpuMicrosPerRequest: oneLoad.cpuMicros,
    cpuRatio,
    firstOfFleetRps: firstLoad.rps,
    firstOfFleetCpuMicrosPerRequest: firstLoad.cpuMicros
  }
}

async function main (): Promise<void> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first (npm run bench:fleet does)`)
  const sizes = counts()
  const port = whole('port', values.port as string)
  const largest = sizes.at(-1) as number
  if (port < 2 || port + largest - 1 > 65_535) throw new Error(`--port ${port} leaves no room for the control address (port − 1) and ${largest} devices below 65536`)
  const files = openFilesLimit()
  const fits = (devices: number) => files === undefined || devices + OTHER_FILES <= files
  const skipped = sizes.filter(size => !fits(size))
  const run = sizes.filter(fits)

  if (values.pauses) {
    await pausesOnly(run, port, files)
    return
  }
  const rounds = whole('rounds', values.rounds as string)
  const manifestDir = await mkdtemp(join(tmpdir(), 'mock-nvr-bench-fleet-'))
  // Also when a signal ends the bench, which runs no finally.
  process.once('exit', () => rmSync(manifestDir, { recursive: true, force: true }))
  const measured = new Map<number, Measured[]>(run.map(devices => [devices, []]))
  let scrape: Scrape | undefined
  let answered: Scrape | undefined
  try {
    for (let round = 0; round < rounds; round++) {
      for (const devices of run) {
        const result = await measure(devices, port, manifestDir, devices === run.at(-1), values.answered)
        measured.get(devices)?.push(result.start)
        if (result.scrape !== undefined) scrape = { ...result.scrape, ms: [...scrape?.ms ?? [], ...result.scrape.ms] }
        if (result.answered !== undefined) answered = { ...result.answered, ms: [...answered?.ms ?? [], ...result.answered.ms] }
      }
    }
  } finally {
    await rm(manifestDir, { recursive: true, force: true })
  }
  const starts: SizeFigures[] = run.map(devices => {
    const each = measured.get(devices) as Measured[]
    const of = (key: 'readyMs' | 'cpuMs' | 'rssMb' | 'peakRssMb' | 'loadAverage') => median(each.map(start => start[key]))
    return { devices, readyMs: of('readyMs'), cpuMs: of('cpuMs'), rssMb: of('rssMb'), peakRssMb: of('peakRssMb'), loadAverage: of('loadAverage'), rounds: each }
  })
  const smallest = starts[0]
  for (const start of starts.slice(1)) {
    if (smallest === undefined) break
    const per = (from: number, to: number, unit: number) => Math.round((to - from) * unit / (start.devices - smallest.devices) * 10) / 10
    start.kbPerDevice = per(smallest.rssMb, start.rssMb, 1024)
    start.kbPerDeviceFromPeaks = per(smallest.peakRssMb, start.peakRssMb, 1024)
    start.cpuMicrosPerDevice = per(smallest.cpuMs, start.cpuMs, 1000)
  }
  const underLoad = values.load ? await compareUnderLoad(whole('loaded', values.loaded as string), whole('duration', values.duration as string)) : undefined

  const report = {
    command: `npm run bench:fleet -- ${process.argv.slice(2).join(' ')}`.replace(/ -- $/, ''),
    machine: { cpu: cpus()[0]?.model.trim() ?? 'unknown', cores: cpus().length, node: process.version, openFiles: files ?? null, loadAverage: loadavg().map(each => Math.round(each * 100) / 100) },
    fleet: { command: `node ${values.cli ?? 'dist/cli.js'} --devices N --port ${port} --token ${BENCH_TOKEN} --admin-token ${ADMIN_TOKEN} --manifest FILE`, rounds, starts, skipped },
    ...(scrape === undefined ? {} : { metrics: scrape }),
    ...(answered === undefined ? {} : { metricsAnswered: answered }),
    ...(underLoad === undefined ? {} : { load: underLoad })
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
    return
  }
  process.stdout.write(formatText(report, smallest?.devices))
}

/** --pauses: each size's start, its load with and without scrapes, and each admin call beside it. */
async function pausesOnly (sizes: readonly number[], port: number, files: number | undefined): Promise<void> {
  const perDevice = whole('per-device', values['per-device'] as string)
  const manifestDir = await mkdtemp(join(tmpdir(), 'mock-nvr-bench-pauses-'))
  process.once('exit', () => rmSync(manifestDir, { recursive: true, force: true }))
  const figures = []
  try {
    for (const devices of sizes) figures.push(await measurePauses(CLI, devices, port, manifestDir, perDevice, values.generate))
  } finally {
    await rm(manifestDir, { recursive: true, force: true })
  }
  const command = `npm run bench:fleet -- ${process.argv.slice(2).join(' ')}`
  const machine = { cpu: cpus()[0]?.model.trim() ?? 'unknown', cores: cpus().length, node: process.version, openFiles: files ?? null, loadAverage: loadavg().map(each => Math.round(each * 100) / 100) }
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ command, machine, pauses: figures }, null, 2)}\n`)
    return
  }
  process.stdout.write(`$ ${command}\n${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, ulimit -n ${String(machine.openFiles)}, load average ${machine.loadAverage.join(' ')}\n${formatPauses(figures, port, values.generate)}`)
}

type Report = {
  command: string
  machine: { cpu: string, cores: number, node: string, openFiles: number | null, loadAverage: number[] }
  fleet: { command: string, rounds: number, starts: SizeFigures[], skipped: number[] }
  metrics?: Scrape
  metricsAnswered?: Scrape
  load?: Awaited<ReturnType<typeof compareUnderLoad>>
}

function formatText ({ command, machine, fleet, metrics, metricsAnswered, load }: Report, smallest: number | undefined): string {
  const number = (value: number) => value.toLocaleString('en-US')
  const lines = [
    `$ ${command}`,
    `${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, ulimit -n ${String(machine.openFiles)}, load average ${machine.loadAverage.join(' ')}`,
    `${fleet.command}; ready: its ready line, then ${PROBED} devices from first to last answer a list`,
    `each size started ${fleet.rounds} times, in turn with the others; medians shown`,
    '',
    table(['devices', 'ready ms', 'CPU ms', 'RSS MB', 'peak RSS MB', 'KB/device', 'CPU µs/device', 'load'], fleet.starts.map(start => [
      number(start.devices), number(start.readyMs), number(start.cpuMs), String(start.rssMb), String(start.peakRssMb),
      start.kbPerDevice === undefined ? '–' : start.kbPerDevice.toFixed(1), start.cpuMicrosPerDevice === undefined ? '–' : number(Math.round(start.cpuMicrosPerDevice)),
      start.loadAverage.toFixed(2)
    ]))
  ]
  if (smallest !== undefined && fleet.starts.length > 1) {
    lines.push(`KB/device: (RSS(N) − RSS(${number(smallest)})) / (N − ${number(smallest)}), RSS at the ready line; CPU µs/device the same of the CPU time to it`)
  }
  if (fleet.skipped.length > 0) lines.push(`skipped ${fleet.skipped.map(number).join(', ')} devices: ulimit -n ${String(machine.openFiles)} is too low for them (raise it: docs/fleet.md, Load tests)`)
  const scraped = (scrape: Scrape, when: string) => `GET /__admin/metrics at ${number(scrape.devices)} devices${when}: ${number(scrape.bytes)} bytes, ${number(scrape.lines)} lines, ` +
    `${median(scrape.ms)} ms (median of ${scrape.ms.length}: ${scrape.ms.join(', ')} ms)`
  if (metrics !== undefined) lines.push('', scraped(metrics, metricsAnswered === undefined ? '' : ', idle'))
  if (metricsAnswered !== undefined) lines.push(scraped(metricsAnswered, ', each device having answered a list'))
  if (load !== undefined) {
    lines.push('',
      `${load.connections} devices, ${load.connections} connections (one each), ${load.seconds} s on ${load.route}: ${load.devicesRps} requests/s, ${String(load.devicesCpuMicrosPerRequest)} µs of server CPU per request`,
      `1 device, ${load.connections} connections, ${load.seconds} s on the same route: ${load.oneDeviceRps} requests/s, ${String(load.oneDeviceCpuMicrosPerRequest)} µs`,
      `the first device of the ${load.connections}, all ${load.connections} connections on it: ${load.firstOfFleetRps} requests/s, ${String(load.firstOfFleetCpuMicrosPerRequest)} µs`,
      `ratio: ${load.ratio} (${load.connections} devices / one device); CPU ratio ${String(load.cpuRatio)} (one device's µs / a fleet device's: 1 means no per-device cost)${load.pinned ? '; server and client pinned to a core each' : ''}`)
  }
  return `${lines.join('\n')}\n`
}

function table (header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map(row => (row[column] as string).length)))
  const format = (row: string[]) => row.map((cell, column) => cell.padStart(widths[column] as number)).join('  ')
  return [format(header), format(widths.map(width => '-'.repeat(width))), ...rows.map(format)].join('\n')
}

await runMain('bench:fleet', main)
