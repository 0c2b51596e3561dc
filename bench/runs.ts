import { basename } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AUTH_HEADERS, BENCH_TOKEN, bundledLinePath, ROUTES, spreadPaths, writeBareRoutes, writeBenchFixtures } from './bench-data.js'
import { combineRuns, measureLoad, median, warmUp, type LoadResult, type LoadSettings } from './load.js'
import { builtCli, freePort, ServerProcess } from './processes.js'
import type { BenchReport, MemoryRow, ThroughputRow } from './report.js'

const MOCK_CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const BARE_SERVER = fileURLToPath(new URL('./bare-fastify-server.js', import.meta.url))
const BARE_NODE_SERVER = fileURLToPath(new URL('./bare-node-server.js', import.meta.url))
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
  /** The routes of the throughput runs. */
  routes: ReadonlyArray<typeof ROUTES[number]>
}

/** A server of the comparison, started afresh each round. */
type Contender = [name: string, start: () => Promise<ServerProcess>]
/** A route of the comparison: its name, and the paths each contender is loaded with, by index. */
type Route = [name: string, pathsOf: (contender: number) => readonly string[]]

/**
 * Round after round, starts every contender afresh and loads each in turn on every route, so a change in the
 * machine's other load touches all of them alike. A process also has luck of its own: the same build, started
 * again or from another folder, settles some 15% faster or slower for its whole life (docs/performance.md), more
 * than most changes being measured. Fresh processes each round make the median a build's, not one process's.
 * Each row is the median of its rounds, and its ratio is to the first contender's; memory is the last round's.
 */
async function compare (context: RunContext, routes: readonly Route[], contenders: readonly Contender[]): Promise<{ throughput: ThroughputRow[], memory: MemoryRow[] }> {
  const runs = routes.map(() => contenders.map((): LoadResult[] => []))
  let memory: MemoryRow[] = []
  for (let round = 0; round < context.rounds; round++) {
    const servers: ServerProcess[] = []
    try {
      for (const [, start] of contenders) servers.push(await start())
      for (const [routeIndex, [, pathsOf]] of routes.entries()) {
        for (const [index, server] of servers.entries()) await warmUp(server, pathsOf(index), context)
        for (const [index, server] of servers.entries()) runs[routeIndex]?.[index]?.push(await measureLoad(server, pathsOf(index), context))
      }
      memory = memoryOf(contenders.map(([name]) => name), servers)
    } finally {
      await Promise.all(servers.map(async server => await server.stop()))
    }
  }
  const throughput = routes.flatMap(([route], routeIndex) => {
    const results = (runs[routeIndex] ?? []).map(combineRuns)
    const baseline = results[0]?.requestsPerSecond ?? 0
    return results.map((result, index) => ({ route, server: contenders[index]?.[0] ?? '', ...result, ratio: result.requestsPerSecond / baseline }))
  })
  return { throughput, memory }
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

async function startBare (context: RunContext, routesFile: string, probePath: string, server = BARE_SERVER): Promise<ServerProcess> {
  const port = await freePort()
  return ServerProcess.start({ command: [process.execPath, server, String(port), routesFile], port, probePath, headers: {}, pin: context.pin })
}

/** The three routes on the bare servers (Fastify, and node:http alone) and on the mock at warn and at the default level, in one run. */
export async function runThroughput (context: RunContext): Promise<Pick<BenchReport, 'throughput' | 'memory'> & { routesFile: string }> {
  const fixtures = await writeBenchFixtures(context.dir)
  const probe = ROUTES[0].path
  const mockArgs = ['--fixtures', fixtures, '--token', BENCH_TOKEN]
  // The bare server serves what the mock does, byte for byte.
  const source = await startMock(context, mockArgs, probe)
  const routesFile = await writeBareRoutes(context.dir, 'bench', source.url, ROUTES.map(route => route.path)).finally(async () => await source.stop())
  const contenders: Contender[] = [
    ['bare Fastify', async () => await startBare(context, routesFile, probe)],
    // The floor: what Node's HTTP server alone costs a request, under bare Fastify and under the fast path.
    ['node:http sending the same bytes', async () => await startBare(context, routesFile, probe, BARE_NODE_SERVER)],
    ['mock, --log-level warn', async () => await startMock(context, [...mockArgs, '--log-level', 'warn'], probe)],
    ['mock, default level info', async () => await startMock(context, mockArgs, probe)]
  ]
  for (const checkout of context.against) {
    const cli = builtCli(checkout)
    contenders.push([`${basename(checkout)}, --log-level warn`, async () => await startMock(context, [...mockArgs, '--log-level', 'warn'], probe, cli)])
    contenders.push([`${basename(checkout)}, default level info`, async () => await startMock(context, mockArgs, probe, cli)])
  }
  const routes = context.routes.map(({ name, path }): Route => [name, () => [path]])
  return { ...await compare(context, routes, contenders), routesFile }
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
  const shapes = [SMALL, LARGE]
  let loadMs = 0
  const contenders = shapes.map((shape): Contender => [`mock --generate ${size(shape)}`, async () => {
    const server = await startMock(context, args(shape), probe)
    if (shape === LARGE) loadMs = Math.round(server.startMs)
    return server
  }])
  const routes = ([['retrieve', false], [`list${LARGE.linesPerCamera}`, true]] as const).map(([route, list]): Route => {
    const paths = shapes.map(shape => spreadPaths(shape.cameras, shape.linesPerCamera, SPREAD_PATHS, list))
    return [route, contender => paths[contender] ?? []]
  })
  return { ...await compare(context, routes, contenders), large: { size: size(LARGE), loadMs } }
}

function memoryOf (names: readonly string[], servers: readonly ServerProcess[]): MemoryRow[] {
  return servers.flatMap((server, index) => {
    const memory = server.memory()
    return memory === undefined ? [] : [{ server: names[index] ?? '', ...memory }]
  })
}
