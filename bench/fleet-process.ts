import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { get } from 'node:http'
import { cpuSecondsOf, memoryOf, readProc, serverEnvironment, stopWithThisProcess } from './processes.js'

// Past this, a start is a failure, not a figure: the bench never waits for good.
const START_TIMEOUT_MS = 120_000
const STOP_TIMEOUT_MS = 30_000

/** What a fleet's process had used when its ready line came: time, CPU and memory. */
export interface FleetStart {
  devices: number
  /** From the spawn to the line `mock-nvr fleet of N devices ready`. */
  readyMs: number
  /** CPU time (user and system) the process had used by then: what the start cost, whatever else the machine runs. */
  cpuMs: number
  /** Resident memory at the ready line, and its peak so far. */
  rssMb: number
  peakRssMb: number
}

/**
 * A fleet from the built CLI, in a process of its own, ready once it prints its ready line (every device listens
 * then): no client connection is needed to know it, so 10,000 devices take no 10,000 sockets of the bench's.
 */
export class FleetProcess {
  readonly start: FleetStart
  readonly #child: ChildProcess

  private constructor (child: ChildProcess, start: FleetStart) {
    this.#child = child
    this.start = start
  }

  static async spawn (command: readonly string[], devices: number): Promise<FleetProcess> {
    const started = performance.now()
    const child = spawn(command[0] as string, command.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env: serverEnvironment() })
    stopWithThisProcess(child)
    let stdout = ''
    let stderr = ''
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
    const readyLine = `mock-nvr fleet of ${devices} devices ready\n`
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${devices} devices were not ready within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS)
        child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
          // Only the start's lines are kept: the request lines after it are read and dropped.
          if (stdout.includes(readyLine)) return
          stdout += chunk
          if (stdout.includes(readyLine)) {
            clearTimeout(timer)
            resolve()
          }
        })
        child.once('exit', code => {
          clearTimeout(timer)
          reject(new Error(`the fleet of ${devices} exited with ${String(code)} before it was ready: ${stderr.trim() || stdout.trim()}`))
        })
      })
    } catch (error) {
      child.kill('SIGKILL')
      throw error
    }
    const readyMs = performance.now() - started
    const pid = child.pid as number
    const { rssMb, peakRssMb } = memoryOf(pid) ?? { rssMb: NaN, peakRssMb: NaN }
    return new FleetProcess(child, { devices, readyMs: Math.round(readyMs), cpuMs: Math.round((cpuSecondsOf(pid) ?? NaN) * 1000), rssMb, peakRssMb })
  }

  /** Its process id, for its memory and CPU time while it runs. */
  get pid (): number {
    return this.#child.pid as number
  }

  /** Stops it as a user does (SIGTERM), then for good if it has not exited in time. */
  async stop (): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return
    const exited = once(this.#child, 'exit')
    this.#child.kill('SIGTERM')
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), STOP_TIMEOUT_MS)
    await exited
    clearTimeout(timer)
  }
}

/** The soft limit of open files this process (and so a fleet it spawns) has; undefined without /proc. */
export function openFilesLimit (): number | undefined {
  const limits = readProc('/proc/self/limits')
  const soft = limits === undefined ? undefined : /^Max open files\s+(\d+|unlimited)/m.exec(limits)?.[1]
  return soft === undefined ? undefined : soft === 'unlimited' ? Infinity : Number(soft)
}

/** One GET on a connection of its own: its status and body. */
export async function fetchOnce (url: string, headers: Record<string, string> = {}): Promise<{ status: number, body: string, ms: number }> {
  const started = performance.now()
  return await new Promise((resolve, reject) => {
    get(url, { headers, agent: false }, response => {
      let body = ''
      response.setEncoding('utf8').on('data', (chunk: string) => { body += chunk })
      response.once('end', () => resolve({ status: response.statusCode as number, body, ms: performance.now() - started }))
    }).once('error', reject)
  })
}
