import type { FastifyBaseLogger } from 'fastify'

/** Signals that ask for a stop. SIGHUP comes when the terminal goes away (an SSH drop, a closed tab). */
const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const

export interface GracefulStop {
  /** How long the close may take before the process exits 1 anyway. */
  graceMs: number
  log: FastifyBaseLogger
  close: () => Promise<void>
}

/**
 * Closes and exits on SIGTERM, SIGINT or SIGHUP (0 once closed), or on an uncaught error, such as a write to a
 * stdout or stderr that is gone (1); a second reason, or a close that outlasts the grace period, exits 1 at once. Fatal
 * signals (SIGSEGV, SIGBUS, ...) are left alone: trapping them makes a crash while exiting loop forever.
 */
export function stopGracefully ({ graceMs, log, close }: GracefulStop): void {
  let stopping = false
  function stop (exitCode: number, reason: () => void): void {
    if (stopping) process.exit(1)
    stopping = true
    // Logging may fail when the terminal is gone; that must not keep the process from stopping.
    try { reason() } catch {}
    setTimeout(() => process.exit(1), graceMs).unref()
    close().then(() => process.exit(exitCode), () => process.exit(1))
  }
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => stop(0, () => log.info({ signal }, 'stopping')))
  }
  // An EPIPE or EBADF on stdout or stderr, once they are gone, arrives here too.
  /* c8 ignore next 2: a defect's own path; the tests cannot cause one */
  process.on('uncaughtException', error => stop(1, () => log.error({ err: error }, 'stopping after an unexpected error')))
  process.on('unhandledRejection', error => stop(1, () => log.error({ err: error }, 'stopping after an unexpected error')))
}
