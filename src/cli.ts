#!/usr/bin/env node
import './cli/node-version-guard.js'
import { helpText, parseCli, UsageError } from './cli/args.js'
import { openApiDocument } from './start/openapi-document.js'
import { OptionsError } from './config/options.js'
import { startMockNvr } from './start/start-mock-nvr.js'
import { describeStartFailure } from './cli/start-failure.js'
import { stopGracefully } from './cli/stop-gracefully.js'
import { VERSION } from './util/version.js'

const EXIT_FAILURE = 1
const EXIT_USAGE = 2

async function main (): Promise<void> {
  let command
  try {
    command = parseCli(process.argv.slice(2), process.env)
  } catch (error) {
    const message = (error as UsageError).message
    return fail(EXIT_USAGE, `${message}${message.endsWith('?') ? '' : '.'} Run mock-nvr --help for the flags.`)
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
    nvr = await startMockNvr({ prettyLogs: process.stdout.isTTY, ...command.options })
  } catch (error) {
    return failToStart(error)
  }

  // Not a log line: scripts wait for it, so it is printed whatever the log level.
  process.stdout.write(`mock-nvr listening on ${nvr.url}\n`)

  stopGracefully({ graceMs: 10_000, log: nvr.app.log, close: () => nvr.close() })
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
