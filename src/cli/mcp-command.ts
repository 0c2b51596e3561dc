import { randomBytes } from 'node:crypto'
import type { Readable, Writable } from 'node:stream'
import { givenBy, serveOptions } from './args.js'
import { COMMAND_FLAGS } from './command-flags.js'
import { HELP_LINE, helpLines } from './flag-rows.js'
import type { MockNvr } from '../start/start-mock-nvr.js'
import { readFlags, type ReadFlags } from './read-flags.js'
import { describeStartFailure } from './start-failure.js'
import { UsageError } from '../errors/errors.js'
import { prettyLogger } from '../logging/logger.js'
import { VERSION } from '../util/version.js'
import { ADMIN_PREFIX } from '../contract/paths.js'
import { fetchCaller, injectCaller } from '../mcp/admin-caller.js'
import { reasonOf } from '../mcp/mcp-server.js'
import { serveOnStdio } from '../mcp/stdio.js'

/** What the command reads and writes: main.ts's CommandLineIo, of which it uses these. */
export interface McpIo {
  env: NodeJS.ProcessEnv
  stdin?: NodeJS.ReadableStream
  stdout: { write: (text: string) => unknown }
  stderr: { write: (text: string) => unknown }
  serving: (nvr: Pick<MockNvr, 'app' | 'close'>) => void
}

const EXIT_OK = 0
const EXIT_FAILURE = 1
const EXIT_USAGE = 2
/** The admin token's variable, which --connect reads as the CLI's other commands read their tokens' variables. */
const ADMIN_TOKEN_VARIABLE = 'MOCK_NVR_ADMIN_TOKEN'
/** What --connect takes beside the URL: the token, and how much to log. */
const CONNECT_FLAGS = new Set(['connect', 'admin-token', 'log-level'])

export const MCP_HELP = [
  `mock-nvr ${VERSION} mcp: the Model Context Protocol on stdin/stdout, for a coding agent (docs/agents.md)`,
  '',
  'Usage: mock-nvr mcp [options]                       start a mock-nvr (or a fleet, with --devices or --fleet) and steer it',
  '       mock-nvr mcp --connect URL [--admin-token T] steer the mock-nvr already running at URL',
  '',
  'stdout carries the protocol alone: logs go to stderr. It stops when stdin closes, and on SIGTERM or SIGINT.',
  'Without --admin-token, the mock-nvr it starts gets an admin token of its own, which it never shows.',
  '',
  'Options:',
  ...helpLines(COMMAND_FLAGS.mcp.flags, [HELP_LINE, ['-v, --version', 'print the version']]),
  ''
].join('\n')

/**
 * mock-nvr mcp: an MCP server over stdio whose tools steer a mock-nvr, one it starts with serving's flags or one
 * already running (--connect URL). Resolves with an exit code for --help, --version and a failure, or with
 * undefined once it serves: it then ends when stdin closes, or on a signal.
 */
export async function runMcpCommand (argv: readonly string[], io: McpIo): Promise<number | undefined> {
  let read: ReadFlags
  try {
    read = readFlags(argv, COMMAND_FLAGS.mcp)
    const unexpected = read.positionals[0]
    if (unexpected !== undefined) throw new UsageError(`unexpected argument '${unexpected.value}'`)
  } catch (error) {
    return usage(io, (error as UsageError).message)
  }
  if (read.help || read.version) {
    io.stdout.write(read.help ? MCP_HELP : `${VERSION}\n`)
    return EXIT_OK
  }
  const connect = read.values.get('connect') as string | undefined
  return connect === undefined ? await startAndServe(read, argv, io) : await connectAndServe(connect, read, io)
}

// Starts the mock-nvr or fleet the flags ask for, logging to stderr, and steers it in-process.
async function startAndServe (read: ReadFlags, argv: readonly string[], io: McpIo): Promise<number | undefined> {
  let options
  try {
    options = serveOptions(read.values, io.env, COMMAND_FLAGS.mcp)
  } catch (error) {
    return usage(io, (error as UsageError).message)
  }
  // The tools need the admin API; a token made here opens it to them alone.
  const adminToken = options.adminToken ?? randomBytes(24).toString('base64url')
  // Human-readable lines on stderr, whatever stdout is: it carries the protocol. The CLI's defaults set a level.
  const started = { ...options, adminToken, prettyLogs: true, logger: prettyLogger(options.logLevel as string, 2) }
  const fleet = options.devices !== undefined || options.fleet !== undefined
  let mock
  try {
    if (fleet) {
      /* c8 ignore next: tsx wraps each import() in a CommonJS interop check that an ES module never takes */
      const { startFleetCommand } = await import('./fleet-command.js')
      mock = await startFleetCommand(started, url => io.stderr.write(`mock-nvr fleet control on ${url}\n`), { port: givenBy(argv, 'port'), shard: givenBy(argv, 'shard') })
    } else {
      /* c8 ignore next: tsx wraps each import() in a CommonJS interop check that an ES module never takes */
      const { startMockNvr } = await import('../start/start-mock-nvr.js')
      mock = await startMockNvr(started)
    }
  } catch (error) {
    io.stderr.write(`mock-nvr: ${describeStartFailure(error, givenBy(argv, 'host'))}\n`)
    return EXIT_FAILURE
  }
  const running = mock
  const where = 'controlUrl' in running ? running.controlUrl : running.url
  const stop = await serveOnStdio({ stdin: io.stdin as Readable, stdout: io.stdout as Writable }, { call: injectCaller(running.app, `Bearer ${adminToken}`), fleet }, async () => await running.close())
  io.serving({ app: running.app, close: stop })
  io.stderr.write(`mock-nvr mcp: serving ${where}${fleet ? ` (a fleet of ${(running as { devices: unknown[] }).devices.length})` : ''}; MCP on stdin/stdout\n`)
  return undefined
}

// Steers a mock-nvr that runs already, through its admin API over HTTP.
async function connectAndServe (url: string, read: ReadFlags, io: McpIo): Promise<number | undefined> {
  const other = [...read.values.keys()].find(flag => !CONNECT_FLAGS.has(flag))
  if (other !== undefined) return usage(io, `--${other} does not apply with --connect: the mock-nvr at ${url} runs already, with its own options`)
  let base: URL
  try {
    base = new URL(url)
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new TypeError(base.protocol)
  } catch {
    return usage(io, `--connect must be an http or https URL such as http://127.0.0.1:8080, not '${url}'`)
  }
  const token = read.values.get('admin-token') as string | undefined ?? io.env[ADMIN_TOKEN_VARIABLE]
  const call = fetchCaller(base.href, token)
  let fleet: boolean
  try {
    // Only a fleet's control address has a list of devices.
    const { status } = await call('GET', `${ADMIN_PREFIX}/devices`)
    if (status === 401) return fail(io, `${base.href} refused the admin token: give it with --admin-token or ${ADMIN_TOKEN_VARIABLE}`)
    fleet = status === 200
  } catch (error) {
    return fail(io, `could not reach ${base.href}: ${reasonOf(error)}`)
  }
  await serveOnStdio({ stdin: io.stdin as Readable, stdout: io.stdout as Writable }, { call, fleet }, async () => {})
  return undefined
}

function usage (io: McpIo, message: string): number {
  io.stderr.write(`mock-nvr: ${message.split('\n').join('.\nmock-nvr: ')}. Run mock-nvr mcp --help for the flags.\n`)
  return EXIT_USAGE
}

function fail (io: McpIo, message: string): number {
  io.stderr.write(`mock-nvr: ${message}.\n`)
  return EXIT_FAILURE
}
