// npm run bench:instructions [-- --route retrieve|list10|list1000] [--requests N] [--against DIR]...
// Counts the instructions each server spends on one request, with valgrind's callgrind: unlike time, the
// count barely moves when the machine is busy, so small differences show. Each server is warmed up, then its
// counters are zeroed (callgrind_control), it answers --requests requests (20,000 by default) and its counters
// are dumped: the count divided by the requests is one request's cost, garbage collection included, start-up and
// warm-up left out. Slow (valgrind runs the server some 50 times slower): two to three minutes per server. The
// warm-up is long because V8 compiles hot code late under valgrind, and the compiler's own instructions would
// otherwise be counted.
import { execFileSync } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { AUTH_HEADERS, BENCH_TOKEN, ROUTES, writeBareRoutes, writeBenchFixtures } from './bench-data.js'
import { builtCli, freePort, ServerProcess } from './processes.js'
import { runMain } from './run-main.js'

const MOCK_CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const BARE_SERVER = fileURLToPath(new URL('./bare-fastify-server.js', import.meta.url))
const WARM_UP = 10_000

const { values } = parseArgs({
  options: { route: { type: 'string', default: 'retrieve' }, requests: { type: 'string', default: '20000' }, against: { type: 'string', multiple: true } }
})
const route = ROUTES.find(({ name }) => name === values.route)
const requests = Number(values.requests)

/** Instructions per request of one server: started under callgrind, warmed up, counted over `requests` requests. */
async function perRequest (dir: string, command: (port: number) => string[], path: string): Promise<number> {
  const port = await freePort()
  const out = join(dir, `callgrind-${port}.out`)
  const server = await ServerProcess.start({
    command: ['valgrind', '--tool=callgrind', `--callgrind-out-file=${out}`, ...command(port)],
    port,
    probePath: path,
    headers: AUTH_HEADERS,
    pin: false
  })
  try {
    const url = `${server.url}${path}`
    await autocannon({ url, connections: 8, amount: WARM_UP, headers: AUTH_HEADERS })
    execFileSync('callgrind_control', ['--zero', String(server.pid)], { stdio: 'ignore' })
    await autocannon({ url, connections: 8, amount: requests, headers: AUTH_HEADERS })
    execFileSync('callgrind_control', ['--dump=counted', String(server.pid)], { stdio: 'ignore' })
  } finally {
    await server.stop()
  }
  const dumps = (await readdir(dir)).filter(name => name.startsWith(`callgrind-${port}.out.`))
  for (const name of dumps) {
    const text = await readFile(join(dir, name), 'utf8')
    if (!/^desc: Trigger: .*\bcounted$/m.test(text)) continue
    const summary = /^(?:summary|totals): (\d+)$/m.exec(text)
    if (summary !== null) return Number(summary[1]) / requests
  }
  throw new Error(`no dump of the counted requests in ${dir} (${dumps.join(', ')})`)
}

async function main (): Promise<void> {
  if (route === undefined) throw new Error(`--route must be one of ${ROUTES.map(({ name }) => name).join(', ')}`)
  if (!Number.isInteger(requests) || requests < 1000) throw new Error(`--requests must be a whole number from 1000, not '${values.requests}'`)
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' })
  const dir = await mkdtemp(join(tmpdir(), 'mock-nvr-instructions-'))
  try {
    const fixtures = await writeBenchFixtures(dir)
    const mock = (level: string, cli = MOCK_CLI) => (port: number) => [process.execPath, cli, '--port', String(port), '--fixtures', fixtures, '--token', BENCH_TOKEN, '--log-level', level]
    // Other built checkouts, counted in the same run: a change against its bases.
    const against = (values.against ?? []).map(checkout => [basename(checkout), builtCli(checkout)] as const)
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
      ...against.flatMap(([name, cli]): Server[] => [[`${name}, --log-level warn`, mock('warn', cli)], [`${name}, default level info`, mock('info', cli)]])
    ]
    const rows: Array<[string, number]> = []
    for (const [name, command] of servers) {
      rows.push([name, await perRequest(dir, command, route.path)])
      process.stderr.write(`${name}: done\n`)
    }
    const baseline = rows[0]?.[1] as number
    process.stdout.write(`instructions per ${route.name} request (callgrind, ${requests} requests counted after ${WARM_UP} to warm up)\n`)
    for (const [name, count] of rows) {
      process.stdout.write(`${name.padEnd(32)}${Math.round(count).toLocaleString('en-US').padStart(10)}   ratio ${(baseline / count).toFixed(2)}\n`)
    }
  } finally {
    // valgrind may still be writing a file as its process goes: retried, so a failure above is not hidden.
    await rm(dir, { recursive: true, force: true, maxRetries: 5 })
  }
}

await runMain('bench', main)
