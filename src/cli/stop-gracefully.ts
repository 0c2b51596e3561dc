import { clearInterval, setInterval, setTimeout } from 'node:timers'
import { isatty } from 'node:tty'
import type { FastifyBaseLogger } from 'fastify'

/** Signals that ask for a stop. SIGHUP comes when the terminal goes away (an SSH drop, a closed tab). */
const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const

export interface GracefulStop {
  /** How long the close may take before the process exits 1 anyway. */
  graceMs: number
  log: FastifyBaseLogger
  close: () => Promise<void>
  /** The environment npm gives the processes it runs; `npm_command` is set under npm start and npx. */
  env?: NodeJS.ProcessEnv
  /** How often the process checks, under npm or npx, that its parent is still there. */
  parentCheckMs?: number
}

/**
 * Closes and exits on SIGTERM, SIGINT or SIGHUP (0 once closed), or on an uncaught error, such as a write to a
 * stdout or stderr that is gone (1); a second reason, or a close that outlasts the grace period, exits 1 at once. Fatal
 * signals (SIGSEGV, SIGBUS, ...) are left alone: trapping them makes a crash while exiting loop forever.
 */
export function stopGracefully ({ graceMs, log, close, env = process.env, parentCheckMs = 500 }: GracefulStop): void {
  const terminals = [0, 1, 2].filter(fd => isatty(fd))
  const exit = (code: number): void => exitProcess(code, terminals)
  let stopping = false
  function stop (exitCode: number, reason: () => void): void {
    if (stopping) exit(1)
    stopping = true
    reason()
    setTimeout(() => exit(1), graceMs).unref()
    close().then(() => exit(exitCode), () => exit(1))
  }
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => stop(0, () => log.info({ signal }, 'stopping')))
  }
  // npx runs the bin through a shell that does not pass a signal on: stopping npx ends the shell and leaves this
  // process to PID 1, still holding its port. Under npm (npm_command set), a parent that goes away is a stop too.
  if (env.npm_command !== undefined) {
    const parent = process.ppid
    whenParentGone(parent, parentCheckMs, () => stop(0, () => log.info({ parent }, 'stopping: the npm process that started mock-nvr is gone')))
  }
  // An EPIPE or EBADF on stdout or stderr, once they are gone, arrives here too (test/cli/stop-gracefully.test.ts).
  process.on('uncaughtException', error => stop(1, () => log.error({ err: error }, 'stopping after an unexpected error')))
  process.on('unhandledRejection', error => stop(1, () => log.error({ err: error }, 'stopping after an unexpected error')))
}

/** What exitProcess uses of the process: the process itself, or a stand-in in a test. */
export interface ExitingProcess {
  pid: number
  kill: (pid: number, signal: NodeJS.Signals) => unknown
  removeAllListeners: (event: NodeJS.Signals) => unknown
  exit: (code: number) => unknown
}

/**
 * Exits with the code; but once a terminal the process started on is gone, by SIGHUP's own default action, as a
 * program ends on a hang-up: a normal exit resets the terminal, and Node 20 aborts (SIGABRT, then SIGSEGV) when it
 * cannot. `terminals` are the standard streams that were terminals at start.
 */
export function exitProcess (code: number, terminals: readonly number[], isTerminal: (fd: number) => boolean = isatty, proc: ExitingProcess = process): void {
  if (terminals.some(fd => !isTerminal(fd))) {
    proc.removeAllListeners('SIGHUP')
    proc.kill(proc.pid, 'SIGHUP')
  }
  proc.exit(code)
}

/** Calls onGone once `parent` is no longer this process's parent, checking every `everyMs` without keeping the process alive. */
export function whenParentGone (parent: number, everyMs: number, onGone: () => void, currentParent = (): number => process.ppid): void {
  const watch = setInterval(function checkParent () {
    if (currentParent() === parent) return
    clearInterval(watch)
    onGone()
  }, everyMs)
  watch.unref()
}
