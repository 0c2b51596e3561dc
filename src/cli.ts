#!/usr/bin/env node
import './cli/node-version-guard.js'
import './cli/garbage-collector.js'
import { runCommandLine } from './cli/main.js'
import { stopGracefully } from './cli/stop-gracefully.js'
import { endQuietlyWhenClosed } from './cli/closed-output.js'

let serving = false
endQuietlyWhenClosed(process.stdout, () => serving)
endQuietlyWhenClosed(process.stderr, () => serving)
const exitCode = await runCommandLine(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  stopSignal,
  serving: nvr => {
    serving = true
    stopGracefully({ graceMs: 10_000, log: nvr.app.log, close: () => nvr.close() })
  }
})
if (exitCode !== undefined) process.exitCode = exitCode

/** Aborts on Ctrl-C or SIGTERM, so a run against the target stops at once and writes nothing. */
function stopSignal (): AbortSignal {
  const controller = new AbortController()
  const stop = (): void => controller.abort()
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  return controller.signal
}
