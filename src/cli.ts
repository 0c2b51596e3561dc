#!/usr/bin/env node
import './cli/node-version-guard.js'
import { helpText, parseCli, UsageError } from './cli/args.js'
import { openApiDocument } from './start/openapi-document.js'
import { OptionsError } from './config/options.js'
import { startMockNvr } from './start/start-mock-nvr.js'
import { describeStartFailure } from './cli/start-failure.js'
import { stopGracefully } from './cli/stop-gracefully.js'
import { VERSION } from './util/version.js'
import { isDeviceCommand, runDeviceCommand } from './cli/device-commands.js'
import { parseProxyArgs, PROXY_HELP } from './cli/proxy-args.js'
import type { ProxyOptions } from './device-proxy/device-proxy.js'

const EXIT_FAILURE = 1
const EXIT_USAGE = 2

async function main (): Promise<void> {
  const [first, ...rest] = process.argv.slice(2)
  if (isDeviceCommand(first)) {
    process.exitCode = await runDeviceCommand(first, rest, { stdout: process.stdout, stderr: process.stderr, signal: stopOnSignal() })
    return
  }
  let command
  let proxy: ProxyOptions | undefined
  try {
    if (first === 'proxy') {
      const parsed = await parseProxyArgs(rest)
      if (parsed.help) {
        process.stdout.write(PROXY_HELP)
        return
      }
      proxy = parsed.proxy
      command = parseCli(parsed.serveArgv, process.env)
    } else {
      command = parseCli(process.argv.slice(2), process.env)
    }
  } catch (error) {
    const message = (error as UsageError).message
    return fail(EXIT_USAGE, `${message}${message.endsWith('?') ? '' : '.'} Run mock-nvr ${first === 'proxy' ? 'proxy ' : ''}--help for the flags.`)
  }
  if (command.command === 'help' || command.command === 'version') {
    process.stdout.write(command.command === 'help' ? helpText(VERSION) : `${VERSION}\n`)
    return
  }
  if (command.command === 'openapi') {
    try {
      process.stdout.write(`${JSON.stringify(await openApiDocument(command.options), null, 2)}\n`)
    } catch (error) {
      failToStart(error)
    }
    return
  }

  let nvr
  try {
    nvr = await startMockNvr({ prettyLogs: process.stdout.isTTY, ...command.options, ...(proxy === undefined ? {} : { proxy }) })
  } catch (error) {
    return failToStart(error)
  }

  // Before the ready line: a script that signals as soon as it reads the line finds the stop in place.
  stopGracefully({ graceMs: 10_000, log: nvr.app.log, close: () => nvr.close() })
  // Not a log line: scripts wait for it, so it is printed whatever the log level.
  process.stdout.write(`mock-nvr listening on ${nvr.url}\n`)
}

/** Aborts on Ctrl-C or SIGTERM, so a run against a device stops at once and writes nothing. */
function stopOnSignal (): AbortSignal {
  const controller = new AbortController()
  const stop = (): void => controller.abort()
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  return controller.signal
}

function failToStart (error: unknown): void {
  if (error instanceof OptionsError) return fail(EXIT_USAGE, error.message)
  fail(EXIT_FAILURE, describeStartFailure(error))
}

function fail (exitCode: number, message: string): void {
  process.stderr.write(`mock-nvr: ${message}\n`)
  process.exitCode = exitCode
}

await main()
