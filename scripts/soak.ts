import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import { Churn, Load, ROUTES, TOKEN, type RouteStats } from './soak-load.js'
import { residentMegabytes, startServer } from './soak-server.js'

const USAGE = 'Usage: npm run soak -- [--connections N] [--duration SECONDS] [--warmup SECONDS] [--churn N]'
// The server keeps nothing per request: every answer is prepared at start. After warm-up its memory should
// plateau; the allowance covers V8 growing its heap headroom and the socket buffers of the connections.
const RSS_ALLOWANCE = { megabytes: 30, ratio: 0.2 }
const EXIT_WAIT_MS = 15_000

const values = readOptions()
if (values.help === true) {
  console.log(USAGE)
  process.exit(0)
}
const [connections, duration, warmup, churnClients] = [values.connections, values.duration, values.warmup, values.churn].map(Number) as [number, number, number, number]
if (![connections, duration, warmup, churnClients].every(value => Number.isInteger(value) && value >= 0) || connections === 0) {
  console.error(`soak: every option takes a whole number (connections at least 1)\n${USAGE}`)
  process.exit(2)
}

const failures: string[] = []
const server = await startServer(['--generate', '4x1000', '--token', TOKEN, '--log-level', 'warn', '--max-connections', String(connections + churnClients + 50)])
const pid = server.child.pid as number
console.log(`mock-nvr soak: ${connections} connections + ${churnClients} churning clients, ${warmup} s warm-up + ${duration} s, then SIGTERM under load`)
console.log(`server: node dist/cli.js ${server.args.join(' ')} (pid ${pid})\n`)

const load = new Load(server.port, connections)
const churn = new Churn(server.port, churnClients)
await sleep(warmup * 1000)
const rssAfterWarmup = await residentMegabytes(pid)
await sleep(duration * 1000)
const rssAfterRun = await residentMegabytes(pid)

// SIGTERM under load: every request already written must still be answered, and the process must exit 0.
const written = [...load.inFlight].filter(([request]) => request.writableFinished).map(([, settled]) => settled)
const notYetWritten = load.inFlight.size - written.length
const beforeSignal: Array<[string, RouteStats]> = [...load.stats].map(([name, stats]) => [name, { ...stats, latencies: [...stats.latencies] }])
load.halt()
churn.halt()
const signalledAt = performance.now()
server.child.kill('SIGTERM')
const outcomes = await Promise.all(written)
const exitCode = await Promise.race([server.exit, sleep(EXIT_WAIT_MS, 'still running')])
const exitMs = Math.round(performance.now() - signalledAt)
if (exitCode === 'still running') server.child.kill('SIGKILL')
await Promise.all([load.stop(), churn.stop()])

console.log('answers before the signal:')
printTable(beforeSignal)
const total = beforeSignal.reduce((sum, [, stats]) => sum + stats.ok + stats.wrongStatus, 0)
console.log(`\nchurn: ${churn.aborted} clients left mid-answer (1000-line list), ${churn.reset} reset their connection`)
const growth = rssAfterRun - rssAfterWarmup
const allowance = Math.max(RSS_ALLOWANCE.megabytes, rssAfterWarmup * RSS_ALLOWANCE.ratio)
console.log(`memory: RSS ${rssAfterWarmup.toFixed(1)} MB after warm-up, ${rssAfterRun.toFixed(1)} MB after ${total} requests (${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MB; allowed +${allowance.toFixed(1)} MB)`)
const lost = outcomes.filter(outcome => outcome !== 'answered')
console.log(`SIGTERM: ${written.length} requests in flight, ${written.length - lost.length} answered, ${lost.length} failed; ${notYetWritten} not yet written; exit code ${String(exitCode)} after ${exitMs} ms`)

for (const [name, stats] of beforeSignal) {
  if (stats.errors > 0) failures.push(`${name}: ${stats.errors} connection errors (${load.errorSamples.join('; ')})`)
  if (stats.serverErrors > 0) failures.push(`${name}: ${stats.serverErrors} answers were 5xx`)
  if (stats.wrongStatus > 0) failures.push(`${name}: ${stats.wrongStatus} answers had another status than ${String(ROUTES.find(route => route.name === name)?.status)}`)
}
if (growth > allowance) failures.push(`resident memory grew by ${growth.toFixed(1)} MB, more than ${allowance.toFixed(1)} MB`)
if (lost.length > 0) failures.push(`requests in flight at SIGTERM failed: ${[...new Set(lost)].join('; ')}`)
if (exitCode !== 0) failures.push(`the server exited with ${String(exitCode)} instead of 0 ${server.stderr()}`)
console.log(failures.length === 0 ? '\nall invariants held' : `\nFAILED:\n- ${failures.join('\n- ')}`)
process.exitCode = failures.length === 0 ? 0 : 1

function printTable (rows: ReadonlyArray<readonly [string, RouteStats]>): void {
  const header = ['route', 'answered', 'as expected', 'other status', '5xx', 'conn. errors', 'p50 ms', 'p99 ms']
  const lines = rows.map(([name, stats]) => {
    const sorted = stats.latencies.sort((a, b) => a - b)
    const at = (quantile: number) => (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * quantile))] ?? 0).toFixed(1)
    return [name, stats.ok + stats.wrongStatus, stats.ok, stats.wrongStatus, stats.serverErrors, stats.errors, at(0.5), at(0.99)].map(String)
  })
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map(line => (line[column] as string).length)))
  for (const line of [header, ...lines]) console.log(line.map((cell, column) => column === 0 ? cell.padEnd(widths[column] as number) : cell.padStart(widths[column] as number)).join('  '))
}

function readOptions () {
  try {
    return parseArgs({
      options: {
        connections: { type: 'string', default: '200' },
        duration: { type: 'string', default: '20' },
        warmup: { type: 'string', default: '3' },
        churn: { type: 'string', default: '10' },
        help: { type: 'boolean', short: 'h' }
      }
    }).values
  } catch (error) {
    console.error(`soak: ${(error as Error).message}\n${USAGE}`)
    process.exit(2)
  }
}
