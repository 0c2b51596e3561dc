import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readFileSync } from 'node:fs'
import { get } from 'node:http'
import { createServer } from 'node:net'
import { join } from 'node:path'

// The server gets one core and the load generator the other, so neither steals the other's time.
const SERVER_CORE = '0'
const CLIENT_CORE = '1'
const CLOCK_TICKS_PER_SECOND = 100
const START_TIMEOUT_MS = 120_000

/** Every server this process started and that has not exited: killed if the bench ends first, however it ends. */
const running = new Set<ChildProcess>()
process.once('exit', () => { for (const child of running) child.kill('SIGKILL') })
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`bench: ${signal}: stopping the servers it started\n`)
    process.exit(130)
  })
}

/** Kills the child when this process exits, should it still run then. */
export function stopWithThisProcess (child: ChildProcess): void {
  running.add(child)
  child.once('exit', () => running.delete(child))
}

/** True when taskset can pin processes to cores (Linux with util-linux) and there are two cores to pin to. */
export function canPin (cores: number): boolean {
  if (cores < 2) return false
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** Pins this process, and every thread it has or starts, to the client core. */
export function pinLoadGenerator (): void {
  execFileSync('taskset', ['-a', '-p', '-c', CLIENT_CORE, String(process.pid)], { stdio: 'ignore' })
}

export async function freePort (): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  server.close()
  await once(server, 'close')
  return port
}

export interface ServerSpec {
  /** The command to run, e.g. ['node', 'dist/cli.js', '--port', '1234']. */
  command: string[]
  port: number
  /** A path that answers 200 once the server serves. */
  probePath: string
  headers: Record<string, string>
  pin: boolean
}

/** A server started in a child process, with the time from spawn to its first 200. */
export class ServerProcess {
  readonly url: string
  readonly startMs: number
  readonly #child: ChildProcess

  private constructor (child: ChildProcess, url: string, startMs: number) {
    this.#child = child
    this.url = url
    this.startMs = startMs
  }

  /** Spawns the server (its output to /dev/null, as a user would run it) and polls until it answers 200. */
  static async start ({ command, port, probePath, headers, pin }: ServerSpec): Promise<ServerProcess> {
    const argv = pin ? ['taskset', '-c', SERVER_CORE, ...command] : command
    const url = `http://127.0.0.1:${port}`
    const started = performance.now()
    const child = spawn(argv[0] as string, argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], env: serverEnvironment() })
    stopWithThisProcess(child)
    let stderr = ''
    child.stderr?.setEncoding('utf8').on('data', chunk => { stderr += chunk })
    const exited = once(child, 'exit').then(([code]) => {
      throw new Error(`${command.join(' ')} exited with ${String(code)} before serving: ${stderr}`)
    })
    try {
      await Promise.race([firstOk(`${url}${probePath}`, headers, started + START_TIMEOUT_MS), exited])
    } catch (error) {
      child.kill()
      throw error
    }
    exited.catch(() => {})
    return new ServerProcess(child, url, performance.now() - started)
  }

  /** The process id of what was spawned (valgrind, when run under it). */
  get pid (): number {
    return this.#child.pid as number
  }

  /** CPU time (user and system) the server has used so far, in seconds; undefined without /proc. */
  cpuSeconds (): number | undefined {
    return cpuSecondsOf(this.#child.pid as number)
  }

  /** Resident memory now and at its peak, in MB; undefined without /proc. */
  memory (): { rssMb: number, peakRssMb: number } | undefined {
    return memoryOf(this.#child.pid as number)
  }

  async stop (): Promise<void> {
    if (this.#child.exitCode !== null) return
    const exit = once(this.#child, 'exit')
    this.#child.kill('SIGTERM')
    await exit
  }
}

/** CPU time (user and system) a process has used so far, in seconds; undefined without /proc. */
export function cpuSecondsOf (pid: number): number | undefined {
  const stat = readProc(`/proc/${pid}/stat`)
  if (stat === undefined) return undefined
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND
}

/** A process's resident memory now and at its peak, in MB; undefined without /proc. */
export function memoryOf (pid: number): { rssMb: number, peakRssMb: number } | undefined {
  const status = readProc(`/proc/${pid}/status`)
  if (status === undefined) return undefined
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1])
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakRssMb: Math.round(kb('VmHWM') / 1024) }
}

// Settings of the caller's shell (MOCK_NVR_LOG_LEVEL, a NODE_OPTIONS loader) would skew what is compared.
export function serverEnvironment (): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('MOCK_NVR_') && name !== 'NODE_OPTIONS'))
}

export function readProc (path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}

// A refused connection means "not listening yet": retry at once, so the measured start is not rounded up.
async function firstOk (url: string, headers: Record<string, string>, deadline: number): Promise<void> {
  while (performance.now() < deadline) {
    const status = await new Promise<number | undefined>(resolve => {
      get(url, { headers, agent: false }, response => {
        response.resume()
        resolve(response.statusCode)
      }).on('error', () => resolve(undefined))
    })
    if (status === 200) return
    if (status !== undefined) throw new Error(`${url} answered ${status}, not 200`)
    await new Promise(resolve => setTimeout(resolve, 1))
  }
  throw new Error(`${url} did not answer within ${START_TIMEOUT_MS / 1000} s`)
}

/** The built CLI of another checkout given with --against: `git worktree add ../base <rev> && (cd ../base && npm ci && npm run build)`. */
export function builtCli (checkout: string): string {
  const cli = join(checkout, 'dist', 'cli.js')
  if (!existsSync(cli)) throw new Error(`--against ${checkout}: no dist/cli.js there; run npm ci and npm run build in it first`)
  return cli
}
