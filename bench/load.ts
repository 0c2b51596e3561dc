import autocannon from 'autocannon'
import type { ServerProcess } from './processes.js'

export interface LoadSettings {
  connections: number
  /** Seconds of one measured run. */
  duration: number
  headers: Record<string, string>
}

export interface LoadResult {
  requestsPerSecond: number
  /** Latency percentiles, in milliseconds. */
  p50: number
  p99: number
  errors: number
  non2xx: number
  bytesPerResponse: number
  /** Server CPU time per answered request, in microseconds: comparable even when the client is the limit. */
  serverCpuUs: number | undefined
}

const WARM_UP_SECONDS = 1

function requestsOf (paths: readonly string[]) {
  // Each request prebuilt once: the client does the same work for one path or thousands.
  return paths.map(path => ({ method: 'GET' as const, path }))
}

/** The first second of a fresh process runs unoptimized code; it is not what is being compared. */
export async function warmUp (server: ServerProcess, paths: readonly string[], settings: LoadSettings): Promise<void> {
  await autocannon({ url: server.url, connections: settings.connections, headers: settings.headers, requests: requestsOf(paths), duration: WARM_UP_SECONDS })
}

/** Loads one server with keep-alive connections, cycling through the paths, and measures its CPU meanwhile. */
export async function measureLoad (server: ServerProcess, paths: readonly string[], settings: LoadSettings): Promise<LoadResult> {
  const cpuBefore = server.cpuSeconds()
  const result = await autocannon({
    url: server.url,
    connections: settings.connections,
    headers: settings.headers,
    requests: requestsOf(paths),
    duration: settings.duration
  })
  const cpuAfter = server.cpuSeconds()
  const answered = result['2xx'] + result.non2xx
  return {
    requestsPerSecond: Math.round(answered / result.duration),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    bytesPerResponse: answered === 0 ? 0 : Math.round(result.throughput.total / answered),
    serverCpuUs: cpuBefore === undefined || cpuAfter === undefined || answered === 0
      ? undefined
      : Math.round((cpuAfter - cpuBefore) * 1e6 / answered * 10) / 10
  }
}

/** Several runs of one server as one: the median of each measure, the sum of the failures. */
export function combineRuns (runs: readonly LoadResult[]): LoadResult {
  const middle = (pick: (run: LoadResult) => number) => median(runs.map(pick))
  const cpu = runs.map(run => run.serverCpuUs)
  return {
    requestsPerSecond: middle(run => run.requestsPerSecond),
    p50: middle(run => run.p50),
    p99: middle(run => run.p99),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    bytesPerResponse: middle(run => run.bytesPerResponse),
    serverCpuUs: cpu.every(value => value !== undefined) ? median(cpu as number[]) : undefined
  }
}

export function median (values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] as number : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}
