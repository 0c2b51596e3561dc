// npm run bench:fleet [-- --devices N] [--loaded N] [--duration S] [--json]
// A fleet from the built CLI: how long N devices take to serve and how much memory they hold; then how many
// requests per second 100 devices serve together against one device, on the same route, with as many connections.
import autocannon from 'autocannon'
import { existsSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { AUTH_HEADERS, BENCH_TOKEN } from './bench-data.js'
import { canPin, pinLoadGenerator, ServerProcess } from './processes.js'
import { runMain } from './run-main.js'

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '1000' },
    loaded: { type: 'string', default: '100' },
    duration: { type: 'string', default: '5' },
    json: { type: 'boolean', default: false }
  }
})

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
// Under load every device serves one generated camera of three lines (the bundled fixtures' ids may change).
const LOAD_DATA = ['--generate', '1x3']
const PATH = '/nvr/v1/cameras/cam-1/counting_lines'
// Below Linux's ephemeral ports (32768 and up), which outgoing connections take, and away from 8080.
const BASE_PORT = 20_000 + Math.floor(Math.random() * 10_000)

function count (name: 'devices' | 'loaded' | 'duration'): number {
  const value = Number(values[name])
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number from 1, not '${values[name]}'`)
  return value
}

function fleetCommand (devices: number, port: number, data: string[] = []): string[] {
  return ['node', CLI, '--devices', String(devices), '--port', String(port), '--token', BENCH_TOKEN, '--log-level', 'warn', '--journal-size', '0', ...data]
}

/** Requests per second, and the server's own CPU time per request (µs): what a device costs, whatever the client can send. */
async function load (server: ServerProcess, urls: string[], connections: number, duration: number): Promise<{ rps: number, cpuMicros: number | undefined }> {
  const options = { url: urls as unknown as string, connections, duration, headers: AUTH_HEADERS, requests: [{ method: 'GET' as const, path: PATH }] }
  await autocannon({ ...options, duration: 1 })
  const cpuBefore = server.cpuSeconds()
  const result = await autocannon(options)
  const cpuAfter = server.cpuSeconds()
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} answers were not 2xx and ${result.errors} failed`)
  const cpuMicros = cpuBefore === undefined || cpuAfter === undefined ? undefined : Math.round((cpuAfter - cpuBefore) * 1e6 / result['2xx'])
  return { rps: Math.round(result['2xx'] / result.duration), cpuMicros }
}

async function main (): Promise<void> {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build first (npm run bench:fleet does)')
  const [devices, loaded, duration] = [count('devices'), count('loaded'), count('duration')]
  const pin = canPin(cpus().length)
  if (pin) pinLoadGenerator()

  // Ready when its last device answers: every device listens at once, after the data is prepared (the bundled fixtures).
  const fleet = await ServerProcess.start({ command: fleetCommand(devices, BASE_PORT), port: BASE_PORT + devices - 1, probePath: '/healthz', headers: {}, pin })
  const memory = fleet.memory()
  await fleet.stop()

  const many = await ServerProcess.start({ command: fleetCommand(loaded, BASE_PORT, LOAD_DATA), port: BASE_PORT + loaded - 1, probePath: '/healthz', headers: {}, pin })
  const manyLoad = await load(many, Array.from({ length: loaded }, (_, index) => `http://127.0.0.1:${BASE_PORT + index}`), loaded, duration)
  // The same fleet with every connection on its first device: what the other devices' mere presence costs.
  const firstLoad = await load(many, [`http://127.0.0.1:${BASE_PORT}`], loaded, duration)
  await many.stop()
  const one = await ServerProcess.start({ command: fleetCommand(1, BASE_PORT, LOAD_DATA), port: BASE_PORT, probePath: '/healthz', headers: {}, pin })
  const oneLoad = await load(one, [`http://127.0.0.1:${BASE_PORT}`], loaded, duration)
  await one.stop()
  const [manyRps, oneRps] = [manyLoad.rps, oneLoad.rps]
  const cpuRatio = manyLoad.cpuMicros === undefined || oneLoad.cpuMicros === undefined ? undefined : Math.round(oneLoad.cpuMicros / manyLoad.cpuMicros * 100) / 100

  const report = {
    command: `npm run bench:fleet -- ${process.argv.slice(2).join(' ')}`.replace(/ -- $/, ''),
    machine: { cpu: cpus()[0]?.model.trim() ?? 'unknown', cores: cpus().length, node: process.version, loadAverage: loadavg().map(each => Math.round(each * 100) / 100), pinned: pin },
    start: { devices, msToLastDevice: Math.round(fleet.startMs), rssMb: memory?.rssMb, peakRssMb: memory?.peakRssMb },
    load: { route: PATH, connections: loaded, seconds: duration, devicesRps: manyRps, oneDeviceRps: oneRps, ratio: Math.round(manyRps / oneRps * 100) / 100, devicesCpuMicrosPerRequest: manyLoad.cpuMicros, oneDeviceCpuMicrosPerRequest: oneLoad.cpuMicros, cpuRatio, firstOfFleetRps: firstLoad.rps, firstOfFleetCpuMicrosPerRequest: firstLoad.cpuMicros }
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
    return
  }
  process.stdout.write([
    `${report.command} on ${report.machine.cpu} (${report.machine.cores} cores, Node ${report.machine.node}, load ${report.machine.loadAverage.join(' ')}${pin ? ', server and client pinned to a core each' : ''})`,
    `${devices} devices: the last one serves ${report.start.msToLastDevice} ms after the spawn, ${String(report.start.rssMb)} MB resident (peak ${String(report.start.peakRssMb)} MB)`,
    `${loaded} devices, ${loaded} connections (one each), ${duration} s on ${PATH}: ${manyRps} requests/s`,
    `1 device, ${loaded} connections, ${duration} s on the same route: ${oneRps} requests/s`,
    `the first device of the ${loaded}, all ${loaded} connections on it: ${firstLoad.rps} requests/s, ${String(firstLoad.cpuMicros)} µs of server CPU per request`,
    `ratio: ${report.load.ratio} (${loaded} devices / one device)`,
    `server CPU per request: ${String(manyLoad.cpuMicros)} µs with ${loaded} devices, ${String(oneLoad.cpuMicros)} µs with one; ratio ${String(cpuRatio)} (one device's cost / a fleet device's: 1 means no per-device cost)`
  ].join('\n') + '\n')
}

await runMain('bench:fleet', main)
