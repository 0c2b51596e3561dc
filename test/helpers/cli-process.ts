import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { runCommandLine } from '../../src/cli/main.js'
import type { MockNvr } from '../../src/start/start-mock-nvr.js'
import { untracked } from './untracked.js'

export const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url))

/** The node flag that loads tsx as the test runner does (.taprc), with the TypeScript text in its source maps. */
export const TSX_IMPORT = `--import=${new URL('tsx-with-sources.js', import.meta.url).href}`

/**
 * The node flags that run the TypeScript source: tsx, and source maps, by which the coverage of a spawned
 * process maps back to src/. Not the test runner's own flags (its mock loader, its coverage import, which
 * NODE_OPTIONS passes on anyway): they cost a second of CPU per process.
 */
export const SOURCE_FLAGS = [TSX_IMPORT, '--enable-source-maps']

/**
 * The CLI bundled from src/ as npm run build bundles it, by test/helpers/cli-under-test.js. Ready in about 0.5 s
 * with plain node, where the sources under tsx and the runner's coverage tracking take 1.8 s: most spawned CLIs
 * test the process (its ready line, signals, pipes), not lines the in-process tests leave uncovered.
 */
export const CLI_UNDER_TEST = fileURLToPath(new URL('../../.cli-under-test/cli.js', import.meta.url))

export interface CliRun {
  child: ChildProcessWithoutNullStreams
  stdout: () => string
  stderr: () => string
  /** Resolves with the URL of the ready line, or rejects if the process exits first. */
  ready: Promise<string>
  exit: Promise<number | null>
}

/** Which CLI a test spawns: the bundle of the sources (the default), another built script, or the sources themselves. */
export type CliScript = string | 'from source'

/**
 * Spawns the CLI for what lives in the process: the ready line, signals, the server it runs. By default the bundle
 * of src/ (CLI_UNDER_TEST) or the built script given, with plain node outside the runner's coverage; 'from source'
 * runs the TypeScript under tsx, with coverage, for the few lines that only a process runs (src/cli.ts).
 */
export function runCli (args: string[], env: Record<string, string> = {}, script: CliScript = CLI_UNDER_TEST): CliRun {
  const [command, commandArgs] = script === 'from source'
    ? [process.execPath, [...SOURCE_FLAGS, CLI, ...args]]
    : untracked(process.execPath, [script, ...args])
  const child = spawn(command, commandArgs, {
    env: { ...process.env, ...env, FORCE_COLOR: '0' }
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

export interface CommandResult {
  code: number
  stdout: string
  stderr: string
}

/**
 * Runs a command line in this process, as src/cli.ts runs it, for a command that ends with an exit code
 * (help, version, openapi, usage errors, a start that fails): what it prints and its exit code, in milliseconds.
 * Given a folder, it runs there, for relative paths as a user types them.
 */
export async function runCommand (args: string[], env: Record<string, string> = {}, cwd?: string): Promise<CommandResult> {
  let stdout = ''
  let stderr = ''
  let server: Pick<MockNvr, 'close'> | undefined
  const home = process.cwd()
  if (cwd !== undefined) process.chdir(cwd)
  const code = await runCommandLine(args, {
    env: { ...process.env, ...env },
    stdout: { write: (text: string) => { stdout += text } },
    stderr: { write: (text: string) => { stderr += text } },
    stopSignal: () => new AbortController().signal,
    serving: nvr => { server = nvr }
  }).finally(() => process.chdir(home))
  if (code === undefined) {
    await server?.close()
    throw new Error(`mock-nvr ${args.join(' ')} started a server; runCli runs one`)
  }
  return { code, stdout, stderr }
}
