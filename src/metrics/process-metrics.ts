/** What the process that serves the devices uses: its CPU time, when it started, its memory. */
export interface ProcessFigures {
  cpuSeconds: number
  startTimeSeconds: number
  residentBytes: number
  heapTotalBytes: number
  heapUsedBytes: number
  externalBytes: number
}

/** This process's figures now. */
export function processFigures (): ProcessFigures {
  const { user, system } = process.cpuUsage()
  const memory = process.memoryUsage()
  return {
    cpuSeconds: (user + system) / 1e6,
    startTimeSeconds: performance.timeOrigin / 1000,
    residentBytes: memory.rss,
    heapTotalBytes: memory.heapTotal,
    heapUsedBytes: memory.heapUsed,
    externalBytes: memory.external
  }
}

/**
 * The process's own families, under the names Prometheus's client libraries give them (prom-client's for Node's
 * heap), so a load test's dashboard shows the mock's CPU and memory beside its poller's with the queries it has.
 */
const FAMILIES: ReadonlyArray<[name: string, type: 'counter' | 'gauge', help: string, value: (figures: ProcessFigures) => number]> = [
  ['process_cpu_seconds_total', 'counter', 'CPU time the process has used, user and system, in seconds', figures => figures.cpuSeconds],
  ['process_start_time_seconds', 'gauge', 'When the process started, in seconds since the Unix epoch', figures => figures.startTimeSeconds],
  ['process_resident_memory_bytes', 'gauge', 'Memory the process holds in RAM (its RSS), in bytes', figures => figures.residentBytes],
  ['nodejs_heap_size_total_bytes', 'gauge', 'What V8 has reserved for its heap, in bytes', figures => figures.heapTotalBytes],
  ['nodejs_heap_size_used_bytes', 'gauge', 'What V8\'s heap holds, garbage not yet collected included, in bytes', figures => figures.heapUsedBytes],
  ['nodejs_external_memory_bytes', 'gauge', 'Memory outside V8\'s heap that its objects hold (buffers), in bytes', figures => figures.externalBytes]
]

/** The process's families in Prometheus's text format, each after a blank line, as they follow the devices'. */
export function processMetricsText (figures: ProcessFigures): string {
  return FAMILIES.map(([name, type, help, value]) => `\n# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${name} ${value(figures)}\n`).join('')
}
