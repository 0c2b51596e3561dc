import type { LoadResult } from './load.js'

export interface ThroughputRow extends LoadResult {
  route: string
  server: string
  /** Requests per second relative to the row this one is compared with (the bare server, or the small data). */
  ratio: number
}

export interface MemoryRow {
  server: string
  rssMb: number
  peakRssMb: number
}

export interface BenchReport {
  command: string
  machine: { cpu: string, cores: number, node: string, loadAverage: number[], pinned: boolean }
  settings: { connections: number, duration: number, rounds: number, starts?: number }
  throughput: ThroughputRow[]
  startup?: { mockMs: number, bareMs: number, ratio: number, mockSamples: number[], bareSamples: number[] }
  large?: { size: string, loadMs: number }
  memory: MemoryRow[]
}

/** The report as text tables, for a person. */
export function formatReport (report: BenchReport): string {
  const { machine, settings } = report
  const lines = [
    `$ ${report.command}`,
    `${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, load average ${machine.loadAverage.map(n => n.toFixed(2)).join(' ')}`,
    machine.pinned
      ? 'server pinned to core 0 and load generator to core 1 (taskset)'
      : 'not pinned: taskset or a second core is missing, so client and server share cores',
    `${settings.connections} keep-alive connections, bearer token on every request; ${settings.rounds} rounds, ` +
      `each starting every server afresh and loading each in turn for a 1 s warm-up and ${settings.duration} s; medians shown`,
    '',
    table(
      ['route', 'server', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'server µs/req', 'bytes/answer', 'ratio'],
      report.throughput.map(row => [
        row.route, row.server, row.requestsPerSecond.toLocaleString('en-US'), String(row.p50), String(row.p99),
        String(row.errors), String(row.non2xx), row.serverCpuUs === undefined ? '–' : row.serverCpuUs.toFixed(1),
        row.bytesPerResponse.toLocaleString('en-US'), row.ratio.toFixed(2)
      ])
    )
  ]
  if (report.startup !== undefined) {
    const { mockMs, bareMs, ratio, mockSamples } = report.startup
    lines.push('', `start to first 200 (median of ${mockSamples.length}): mock on the bundled fixtures ${mockMs} ms, ` +
      `bare Fastify ${bareMs} ms, ratio ${ratio.toFixed(2)}`)
  }
  if (report.large !== undefined) {
    lines.push('', `--generate ${report.large.size}: start to first 200 in ${report.large.loadMs.toLocaleString('en-US')} ms`)
  }
  lines.push('', table(['server', 'RSS after load MB', 'peak RSS MB'],
    report.memory.map(row => [row.server, String(row.rssMb), String(row.peakRssMb)])))
  return `${lines.join('\n')}\n`
}

function table (header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map(row => (row[column] as string).length)))
  // Text left, numbers right, as a reader scans them.
  const format = (row: string[]) => row.map((cell, column) => {
    const width = widths[column] as number
    return column < 2 ? cell.padEnd(width) : cell.padStart(width)
  }).join('  ').trimEnd()
  return [format(header), format(widths.map(width => '-'.repeat(width))), ...rows.map(format)].join('\n')
}
