#!/usr/bin/env node
import closeWithGrace from 'close-with-grace'
import { helpText, parseCli, UsageError } from './cli-args.js'
import { FixtureError } from './fixture-validation.js'
import { OptionsError } from './options.js'
import { startMockNvr } from './server.js'
import { VERSION } from './version.js'

const EXIT_FAILURE = 1
const EXIT_USAGE = 2

async function main (): Promise<void> {
  let command
  try {
    command = parseCli(process.argv.slice(2), process.env)
  } catch (error) {
    return fail(EXIT_USAGE, `${(error as UsageError).message}\nRun 'mock-nvr --help' for the options.`)
  }
  if (command.command !== 'serve') {
    process.stdout.write(command.command === 'help' ? helpText(VERSION) : `${VERSION}\n`)
    return
  }

  let nvr
  try {
    nvr = await startMockNvr({ prettyLogs: process.stdout.isTTY, ...command.options })
  } catch (error) {
    if (error instanceof OptionsError) return fail(EXIT_USAGE, error.message)
    return fail(EXIT_FAILURE, describeStartFailure(error))
  }

  // Not a log line: scripts wait for it, so it is printed whatever the log level.
  process.stdout.write(`mock-nvr listening on ${nvr.url}\n`)

  closeWithGrace({ delay: 10_000, logger: nvr.app.log }, async ({ err }) => {
    if (err !== undefined) nvr.app.log.error({ err }, 'stopping after an unexpected error')
    await nvr.close()
  })
}

function describeStartFailure (error: unknown): string {
  if (error instanceof FixtureError) return error.message
  const { code, address, port } = error as NodeJS.ErrnoException & { address?: string, port?: number }
  if (code === 'EADDRINUSE') return `cannot listen: port ${String(port)} on ${String(address)} is already in use`
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return `cannot listen: the host ${String(address ?? '')} is not an address of this machine`
  if (code === 'EACCES') return `cannot listen: port ${String(port)} needs more privileges`
  return `cannot start: ${(error as Error).message}`
}

function fail (exitCode: number, message: string): void {
  process.stderr.write(`mock-nvr: ${message}\n`)
  process.exitCode = exitCode
}

await main()
