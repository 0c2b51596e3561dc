// npm run bench:instructions [-- --route retrieve|list10|list1000] [--against DIR]
// Counts the instructions each server spends on one request, with valgrind's callgrind: unlike time, the
// count barely moves when the machine is busy, so small differences show. Each server is run twice, for
// 2,000 and for 12,000 requests after the same warm-up; the difference divided by 10,000 is one request's
// cost, start-up and warm-up cancelled out. Slow (valgrind runs the server some 50 times slower): about
// three minutes per server. The warm-up is long because V8 compiles hot code late under valgrind,
// and the compiler's own instructions would otherwise be counted.
import { execFileSync } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { AUTH_HEADERS, BENCH_TOKEN, ROUTES, writeBareRoutes, writeBenchFixtures } from './bench-data.js'
import { freePort, ServerProcess } from './processes.js'
import { runMain } from './run-main.js'

const MOCK_CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const BARE_SERVER = fileURLToPath(new URL('./bare-fastify-server.js', import.meta.url))
const WARM_UP = 10_000
const FEW = 2000
const MANY = 12_000

const { values } = parseArgs({ options: { route: { type: 'string', default: 'retrieve' }, against: { type: 'string' } } })
const route = ROUTES.find(({ name }) => name === values.route)

/** Total instructions of one run of the server: started under callgrind, asked `requests` times after the warm-up, stopped. */
async function countRun (dir: string, command: (port: number) => string[], path: string, requests: number): Promise<number> {
  const port = await freePort()
  const out = join(dir, `callgrind-${port}.out`)
  const server = await ServerProcess.start({
    command: ['valgrind', '--tool=callgrind', `--callgrind-out-file=${out}`, ...command(port)],
    port,
    probePath: path,
    headers: AUTH_HEADERS,
    pin: false
  })
  const url = `${server.url}${path}`
  await autocannon({ url, connections: 8, amount: WARM_UP, headers: AUTH_HEADERS })
  await autocannon({ url, connections: 8, amount: requests, headers: AUTH_HEADERS })
  await server.stop()
  const summary = /^summary: (\d+)$/m.exec(await readFile(out, 'utf8'))
  if (summary === null) throw new Error(`no summary in ${out}`)
  return Number(summary[1])
}

async function perRequest (dir: string, command: (port: number) => string[], path: string): Promise<number> {
  const few = await countRun(dir, command, path, FEW)
  const many = await countRun(dir, command, path, MANY)
  return (many - few) / (MANY - FEW)
}

async function main (): Promise<void> {
  if (route === undefined) throw new Error(`--route must be one of ${ROUTES.map(({ name }) => name).join(', ')}`)
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' })
  const dir = await mkdtemp(join(tmpdir(), 'mock-nvr-instructions-'))
  try {
    const fixtures = await writeBenchFixtures(dir)
    const mock = (level: string, cli = MOCK_CLI) => (port: number) => [process.execPath, cli, '--port', String(port), '--fixtures', fixtures, '--token', BENCH_TOKEN, '--log-level', level]
    // Another built checkout, counted in the same run: a change against its base.
    const against = values.against === undefined ? [] : [join(values.against, 'dist', 'cli.js')]
    // The bare server answers with the mock's own bytes: fetch them once from a mock outside valgrind.
    const port = await freePort()
    const source = await ServerProcess.start({ command: mock('silent')(port), port, probePath: route.path, headers: AUTH_HEADERS, pin: false })
    const routesFile = await writeBareRoutes(dir, route.name, source.url, [route.path])
    await source.stop()

    type Server = [name: string, command: (port: number) => string[]]
    const servers: Server[] = [
      ['bare Fastify', (port: number) => [process.execPath, BARE_SERVER, String(port), routesFile]],
      ['mock, --log-level warn', mock('warn')],
      ['mock, default level info', mock('info')],
      ...against.flatMap((cli): Server[] => [['--against, --log-level warn', mock('warn', cli)], ['--against, default level info', mock('info', cli)]])
    ]
    const rows: Array<[string, number]> = []
    for (const [name, command] of servers) {
      rows.push([name, await perRequest(dir, command, route.path)])
      process.stderr.write(`${name}: done\n`)
    }
    const baseline = rows[0]?.[1] as number
    process.stdout.write(`instructions per ${route.name} request (callgrind, ${MANY} minus ${FEW} requests after ${WARM_UP} to warm up)\n`)
    for (const [name, count] of rows) {
      process.stdout.write(`${name.padEnd(32)}${Math.round(count).toLocaleString('en-US').padStart(10)}   ratio ${(baseline / count).toFixed(2)}\n`)
    }
  } finally {
    // valgrind may still be writing a file as its process goes: retried, so a failure above is not hidden.
    await rm(dir, { recursive: true, force: true, maxRetries: 5 })
  }
}

await runMain('bench', main)
