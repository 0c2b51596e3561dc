import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))

/** The built CLI, started as a user would start it, on a free port of 127.0.0.1. */
export interface SoakServer {
  child: ChildProcess
  port: number
  args: string[]
  exit: Promise<number | null>
  /** Whatever the server wrote to stderr (a crash would show here). */
  stderr: () => string
}

export async function startServer (args: string[]): Promise<SoakServer> {
  const fullArgs = ['--port', '0', '--host', '127.0.0.1', ...args]
  const child = spawn(process.execPath, [CLI, ...fullArgs], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stderr?.setEncoding('utf8').on('data', chunk => { stderr += chunk })
  const exit = once(child, 'exit').then(([code]) => code as number | null)
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', chunk => {
      stdout += chunk
      const match = /mock-nvr listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout)
      if (match !== null) resolve(Number(match[1]))
    })
    exit.then(code => reject(new Error(`the server exited with ${String(code)} before it was ready: ${stderr}`)), reject)
  })
  return { child, port, args: fullArgs, exit, stderr: () => stderr }
}

/** Resident memory of a process in MB, as the operating system reports it. */
export async function residentMegabytes (pid: number): Promise<number> {
  const { stdout } = await promisify(execFile)('ps', ['-o', 'rss=', '-p', String(pid)])
  return Number(stdout.trim()) / 1024
}
