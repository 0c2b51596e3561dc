#!/usr/bin/env node
import './cli/node-version-guard.js'
import { runCommandLine } from './cli/main.js'
import { stopGracefully } from './cli/stop-gracefully.js'

const outcome = await runCommandLine(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr, stopSignal })
if (typeof outcome === 'number') process.exitCode = outcome
else stopGracefully({ graceMs: 10_000, log: outcome.app.log, close: () => outcome.close() })

/** Aborts on Ctrl-C or SIGTERM, so a run against a device stops at once and writes nothing. */
function stopSignal (): AbortSignal {
  const controller = new AbortController()
  const stop = (): void => controller.abort()
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  return controller.signal
}
