import autocannon from 'autocannon'
import type { ServerProcess } from './processes.js'

export interface LoadSettings {
  connections: number
  /** Seconds of measured load, after a one-second warm-up. */
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

/**
 * Loads one server with keep-alive connections, cycling through the paths (each request prebuilt, so
 * the client does the same work for one path or thousands), and measures the server's CPU meanwhile.
 */
export async function measureLoad (server: ServerProcess, paths: readonly string[], settings: LoadSettings): Promise<LoadResult> {
  const options = {
    url: server.url,
    connections: settings.connections,
    headers: settings.headers,
    requests: paths.map(path => ({ method: 'GET' as const, path }))
  }
  // The first seconds of a fresh process run unoptimized code; they are not what is being compared.
  await autocannon({ ...options, duration: WARM_UP_SECONDS })
  const cpuBefore = server.cpuSeconds()
  const result = await autocannon({ ...options, duration: settings.duration })
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
