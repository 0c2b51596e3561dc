import { basename } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AUTH_HEADERS, BENCH_TOKEN, bundledLinePath, ROUTES, spreadPaths, writeBareRoutes, writeBenchFixtures } from './bench-data.js'
import { combineRuns, measureLoad, median, warmUp, type LoadResult, type LoadSettings } from './load.js'
import { builtCli, freePort, ServerProcess } from './processes.js'
import type { BenchReport, MemoryRow, ThroughputRow } from './report.js'

const MOCK_CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const BARE_SERVER = fileURLToPath(new URL('./bare-fastify-server.js', import.meta.url))
const LARGE = { cameras: 10_000, linesPerCamera: 100 }
const SMALL = { cameras: 10, linesPerCamera: 100 }
const SPREAD_PATHS = 4096

export interface RunContext extends LoadSettings {
  dir: string
  pin: boolean
  /** Other built checkouts of mock-nvr, loaded in the same rounds: a change measured against its bases. */
  against: readonly string[]
  /** Runs per server and route, taken in turn. */
  rounds: number
}

type Named = [name: string, server: ServerProcess]
type Contender = [name: string, server: ServerProcess, paths: readonly string[]]

/**
 * Loads each server in turn, round after round, so a change in the machine's other load touches all of
 * them alike; each row is the median of its rounds, and its ratio is to the first contender's.
 */
async function compare (context: RunContext, route: string, contenders: readonly Contender[]): Promise<ThroughputRow[]> {
  for (const [, server, paths] of contenders) await warmUp(server, paths, context)
  const runs = contenders.map((): LoadResult[] => [])
  for (let round = 0; round < context.rounds; round++) {
    for (const [index, [, server, paths]] of contenders.entries()) runs[index]?.push(await measureLoad(server, paths, context))
  }
  const results = runs.map(combineRuns)
  const baseline = results[0]?.requestsPerSecond ?? 0
  return results.map((result, index) => ({ route, server: contenders[index]?.[0] ?? '', ...result, ratio: result.requestsPerSecond / baseline }))
}

async function startMock (context: RunContext, args: string[], probePath: string, cli = MOCK_CLI): Promise<ServerProcess> {
  const port = await freePort()
  return ServerProcess.start({
    command: [process.execPath, cli, '--port', String(port), ...args],
    port,
    probePath,
    headers: AUTH_HEADERS,
    pin: context.pin
  })
}

async function startBare (context: RunContext, routesFile: string, probePath: string): Promise<ServerProcess> {
  const port = await freePort()
  return ServerProcess.start({ command: [process.execPath, BARE_SERVER, String(port), routesFile], port, probePath, headers: {}, pin: context.pin })
}

/** The three routes on the bare server and on the mock at warn and at the default level, in one run. */
export async function runThroughput (context: RunContext): Promise<Pick<BenchReport, 'throughput' | 'memory'> & { routesFile: string }> {
  const fixtures = await writeBenchFixtures(context.dir)
  const probe = ROUTES[0].path
  const mockArgs = ['--fixtures', fixtures, '--token', BENCH_TOKEN]
  const mockWarn = await startMock(context, [...mockArgs, '--log-level', 'warn'], probe)
  const mockInfo = await startMock(context, mockArgs, probe)
  const routesFile = await writeBareRoutes(context.dir, 'bench', mockWarn.url, ROUTES.map(route => route.path))
  const bare = await startBare(context, routesFile, probe)
  const servers: Named[] = [['bare Fastify', bare], ['mock, --log-level warn', mockWarn], ['mock, default level info', mockInfo]]
  for (const checkout of context.against) {
    const cli = builtCli(checkout)
    servers.push([`${basename(checkout)}, --log-level warn`, await startMock(context, [...mockArgs, '--log-level', 'warn'], probe, cli)])
    servers.push([`${basename(checkout)}, default level info`, await startMock(context, mockArgs, probe, cli)])
  }
  try {
    const throughput: ThroughputRow[] = []
    for (const route of ROUTES) {
      throughput.push(...await compare(context, route.name, servers.map(([name, server]): Contender => [name, server, [route.path]])))
    }
    return { throughput, memory: memoryOf(servers), routesFile }
  } finally {
    await Promise.all(servers.map(([, server]) => server.stop()))
  }
}

/** Median start to first 200: the mock on its bundled fixtures, and the bare server; started in turn. */
export async function runStartup (context: RunContext, starts: number, bareRoutesFile: string): Promise<NonNullable<BenchReport['startup']>> {
  const mockProbe = await bundledLinePath()
  const mockSamples: number[] = []
  const bareSamples: number[] = []
  for (let run = 0; run < starts; run++) {
    const mock = await startMock(context, [], mockProbe)
    await mock.stop()
    mockSamples.push(Math.round(mock.startMs))
    const bare = await startBare(context, bareRoutesFile, ROUTES[0].path)
    await bare.stop()
    bareSamples.push(Math.round(bare.startMs))
  }
  const mockMs = median(mockSamples)
  const bareMs = median(bareSamples)
  return { mockMs, bareMs, ratio: mockMs / bareMs, mockSamples, bareSamples }
}

/** 10,000 cameras × 100 lines against 10 × 100: load time, memory, and whether lookups slow down. */
export async function runLarge (context: RunContext): Promise<Pick<BenchReport, 'throughput' | 'memory' | 'large'>> {
  const size = (s: typeof LARGE) => `${s.cameras}x${s.linesPerCamera}`
  const args = (s: typeof LARGE) => ['--generate', size(s), '--token', BENCH_TOKEN, '--log-level', 'warn']
  const probe = '/nvr/v1/cameras/cam-1/counting_lines/line-1'
  const large = await startMock(context, args(LARGE), probe)
  const small = await startMock(context, args(SMALL), probe)
  const servers: Named[] = [[`mock --generate ${size(SMALL)}`, small], [`mock --generate ${size(LARGE)}`, large]]
  try {
    const throughput: ThroughputRow[] = []
    for (const [route, list] of [['retrieve', false], [`list${LARGE.linesPerCamera}`, true]] as const) {
      throughput.push(...await compare(context, route, servers.map(([name, server]): Contender => {
        const shape = server === large ? LARGE : SMALL
        return [name, server, spreadPaths(shape.cameras, shape.linesPerCamera, SPREAD_PATHS, list)]
      })))
    }
    return { throughput, memory: memoryOf(servers), large: { size: size(LARGE), loadMs: Math.round(large.startMs) } }
  } finally {
    await Promise.all(servers.map(([, server]) => server.stop()))
  }
}

function memoryOf (servers: Named[]): MemoryRow[] {
  return servers.flatMap(([name, server]) => {
    const memory = server.memory()
    return memory === undefined ? [] : [{ server: name, ...memory }]
  })
}
