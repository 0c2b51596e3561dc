import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url))

export interface CliRun {
  child: ChildProcessWithoutNullStreams
  stdout: () => string
  stderr: () => string
  /** Resolves with the URL of the ready line, or rejects if the process exits first. */
  ready: Promise<string>
  exit: Promise<number | null>
}

/**
 * Spawns the CLI from source with the test runner's loader flags, so it runs the TypeScript as is;
 * or, given a built script, that script with plain node.
 */
export function runCli (args: string[], env: Record<string, string> = {}, script?: string, cwd?: string): CliRun {
  const command = script === undefined ? [...process.execArgv, CLI] : [script]
  const child = spawn(process.execPath, [...command, ...args], {
    env: { ...process.env, ...env, FORCE_COLOR: '0' },
    cwd
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', chunk => { stdout += chunk })
  child.stderr.setEncoding('utf8').on('data', chunk => { stderr += chunk })
  const exit = once(child, 'exit').then(([code]) => code as number | null)
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = /mock-nvr listening on (\S+)/.exec(stdout)
      if (match !== null) resolve(match[1] as string)
    })
    child.once('exit', code => reject(new Error(`exited with ${String(code)} before ready: ${stderr}`)))
  })
  // A test that expects an early exit never awaits ready; its rejection is expected, not unhandled.
  ready.catch(() => {})
  return { child, stdout: () => stdout, stderr: () => stderr, ready, exit }
}

/** Resolves once the CLI's stdout holds the text; pino writes to a pipe asynchronously, after the ready line. */
export function printed (cli: CliRun, text: string): Promise<void> {
  return new Promise(resolve => {
    const check = () => {
      if (!cli.stdout().includes(text)) return
      cli.child.stdout.off('data', check)
      resolve()
    }
    cli.child.stdout.on('data', check)
    check()
  })
}
