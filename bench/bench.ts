// npm run bench [-- --duration S] [--rounds N] [--connections N] [--starts N] [--large] [--json] [--against DIR]... [--route NAME]...
// Loads the mock and a bare Fastify server, each in its own process, and prints how they compare.
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { builtCli, canPin, pinLoadGenerator } from './processes.js'
import { formatReport, type BenchReport } from './report.js'
import { runLarge, runStartup, runThroughput, type RunContext } from './runs.js'
import { AUTH_HEADERS, ROUTES } from './bench-data.js'
import { runMain } from './run-main.js'

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
    starts: { type: 'string', default: '5' },
    large: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    against: { type: 'string', multiple: true },
    route: { type: 'string', multiple: true }
  }
})

function positiveInteger (name: string, text: string): number {
  const value = Number(text)
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number from 1, not '${text}'`)
  return value
}

// The throughput routes to load: all three, or those named with --route.
function chosenRoutes (names: readonly string[] | undefined): RunContext['routes'] {
  if (names === undefined) return ROUTES
  const known = ROUTES.map(({ name }) => name)
  const unknown = names.find(name => !known.includes(name as typeof known[number]))
  if (unknown !== undefined) throw new Error(`--route must be one of ${known.join(', ')}, not '${unknown}'`)
  return ROUTES.filter(({ name }) => names.includes(name))
}

async function main (): Promise<void> {
  if (!existsSync(fileURLToPath(new URL('../dist/cli.js', import.meta.url)))) {
    throw new Error('dist/cli.js is missing: run npm run build first (npm run bench does)')
  }
  const cores = cpus().length
  const pin = canPin(cores)
  if (pin) pinLoadGenerator()
  const against = values.against ?? []
  against.forEach(builtCli)
  const dir = await mkdtemp(join(tmpdir(), 'mock-nvr-bench-'))
  const context: RunContext = {
    dir,
    pin,
    connections: positiveInteger('connections', values.connections),
    duration: positiveInteger('duration', values.duration),
    rounds: positiveInteger('rounds', values.rounds),
    headers: AUTH_HEADERS,
    against,
    routes: chosenRoutes(values.route)
  }
  const starts = positiveInteger('starts', values.starts)
  try {
    const report: BenchReport = {
      command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.replace(/ -- $/, ''),
      machine: { cpu: cpus()[0]?.model.trim() ?? 'unknown', cores, node: process.version, loadAverage: loadavg(), pinned: pin },
      settings: { connections: context.connections, duration: context.duration, rounds: context.rounds },
      throughput: [],
      memory: []
    }
    if (values.large) {
      Object.assign(report, await runLarge(context))
    } else {
      const { routesFile, ...results } = await runThroughput(context)
      Object.assign(report, results)
      report.startup = await runStartup(context, starts, routesFile)
      report.settings.starts = starts
    }
    process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report))
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

await runMain('bench', main)
