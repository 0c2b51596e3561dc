import { COMMANDS, givenBy, helpText, parseCli, unknownCommand, type CliCommand } from './args.js'
import { isTargetCommand } from './target-args.js'
import { unknownVariables } from './variables.js'
import { isWildcardHost } from '../util/listen-address.js'
import { VERSION } from '../util/version.js'
import type { MockNvr, StartOptions } from '../start/start-mock-nvr.js'
import type { ResolvedOptions } from '../config/options-schema.js'
import type { ProxyOptions } from '../target-proxy/target-proxy.js'
import { FixtureError, ScheduleFileError, UsageError } from '../errors/errors.js'
import type { NamedFiles } from './file-problems.js'

/** What a command line reads and writes; src/cli.ts gives it the process's own. */
export interface CommandLineIo {
  env: NodeJS.ProcessEnv
  stdout: { write: (text: string) => unknown, isTTY?: boolean }
  stderr: { write: (text: string) => unknown }
  /** What `mock-nvr mcp` reads the protocol from; src/cli.ts gives it the process's stdin. */
  stdin?: NodeJS.ReadableStream
  /** What stops a run against the target (Ctrl-C, SIGTERM); asked for only by the commands that run one. */
  stopSignal: () => AbortSignal
  /**
   * Takes over a server that started, before its ready line: a script that signals as soon as it reads the
   * line finds the stop in place.
   */
  serving: (nvr: Pick<MockNvr, 'app' | 'close'>) => void
}

const EXIT_OK = 0
const EXIT_FAILURE = 1
const EXIT_USAGE = 2
const HELP_AND_VERSION = new Set(['-h', '--help', '-v', '--version'])

/**
 * Runs one mock-nvr command line. Resolves with the exit code of a command that is done, or with undefined
 * once a server started and was handed to io.serving. Nothing here throws for a user's mistake.
 */
export async function runCommandLine (argv: readonly string[], io: CommandLineIo): Promise<number | undefined> {
  const [first, ...rest] = argv
  // --help and --version read no environment, so they answer in any; every other command first refuses a
  // misspelt variable, which would otherwise be ignored (MOCK_NVR_TOKEN for MOCK_NVR_TOKENS: any token accepted).
  const { misspelt, warnings } = argv.some(arg => HELP_AND_VERSION.has(arg)) ? { warnings: [] } : unknownVariables(io.env)
  if (misspelt !== undefined) return fail(io, EXIT_USAGE, `${sentence(misspelt)} Run mock-nvr --help for the flags and their variables.`)
  for (const warning of warnings) io.stderr.write(`mock-nvr: ${warning}\n`)
  // A word where a command goes is a command: a misspelt one is named as such, whatever flags follow it.
  if (first !== undefined && !first.startsWith('-') && !(COMMANDS as readonly string[]).includes(first)) {
    return fail(io, EXIT_USAGE, `${sentence(unknownCommand(first))} Run mock-nvr --help for the commands.`)
  }
  // Each command loads only what it uses: --help, --version and a usage error answer without loading the server.
  if (isTargetCommand(first)) {
    /* c8 ignore next: tsx wraps each import() in a CommonJS interop check that an ES module never takes */
    const { runTargetCommand } = await import('./target-commands.js')
    return await runTargetCommand(first, rest, { stdout: io.stdout, stderr: io.stderr, signal: io.stopSignal(), env: io.env })
  }
  if (first === 'mcp') {
    /* c8 ignore next: tsx wraps each import() in a CommonJS interop check that an ES module never takes */
    const { runMcpCommand } = await import('./mcp-command.js')
    return await runMcpCommand(rest, io)
  }
  let command: CliCommand
  let proxy: ProxyOptions | undefined
  try {
    if (first === 'proxy') {
      /* c8 ignore next: tsx wraps each import() in a CommonJS interop check that an ES module never takes */
      const { parseProxyArgs, PROXY_HELP } = await import('./proxy-args.js')
      const parsed = await parseProxyArgs(rest, io.env)
      if (parsed.help || parsed.version) {
        io.stdout.write(parsed.help ? PROXY_HELP : `${VERSION}\n`)
        return EXIT_OK
      }
      proxy = parsed.proxy
      command = { command: 'serve', options: parsed.options }
    } else {
      command = parseCli(argv, io.env)
    }
  } catch (error) {
    // One line per problem, the pointer to --help after the last.
    const lines = (error as UsageError).message.split('\n').map(sentence)
    // The files it names are checked too, so that one run reports every problem.
    const files = first === 'proxy' ? [] : await problemsOfFiles({ argv, env: io.env })
    return fail(io, EXIT_USAGE, [`${lines.join('\nmock-nvr: ')} Run mock-nvr ${first === 'proxy' ? 'proxy ' : ''}--help for the flags.`, ...files].join('\nmock-nvr: '))
  }
  if (command.command === 'help' || command.command === 'version') {
    io.stdout.write(command.command === 'help' ? helpText(VERSION) : `${VERSION}\n`)
    return EXIT_OK
  }
  if (command.command === 'openapi') return await printOpenApi(io, command.options, argv)

  if (command.options.devices !== undefined || command.options.fleet !== undefined) return await startFleet(io, command.options, argv)
  return await serveOne(io, { prettyLogs: io.stdout.isTTY === true, ...command.options, ...(proxy === undefined ? {} : { proxy }) }, argv)
}

// The openapi command: the document, without listening.
async function printOpenApi (io: CommandLineIo, options: Partial<ResolvedOptions>, argv: readonly string[]): Promise<number> {
  try {
    /* c8 ignore next: tsx wraps each import() in a CommonJS interop check that an ES module never takes */
    const { openApiDocument } = await import('../start/openapi-document.js')
    io.stdout.write(`${JSON.stringify(await openApiDocument(options), null, 2)}\n`)
    return EXIT_OK
  } catch (error) {
    return await failToStart(io, error, argv, options)
  }
}

// One device (or a proxy), handed to io.serving once it listens.
async function serveOne (io: CommandLineIo, options: StartOptions, argv: readonly string[]): Promise<number | undefined> {
  let nvr
  try {
    /* c8 ignore next: tsx wraps each import() in a CommonJS interop check that an ES module never takes */
    const { startMockNvr } = await import('../start/start-mock-nvr.js')
    nvr = await startMockNvr(options)
  } catch (error) {
    return await failToStart(io, error, argv, options)
  }
  io.serving(nvr)
  // Not a log line: scripts wait for it, so it is printed whatever the log level.
  io.stdout.write(readyLine(nvr))
  return undefined
}

// A device whose schedule starts offline does not listen yet: its line says so rather than promise a port.
function readyLine ({ url, host, health }: MockNvr): string {
  const { listening, until } = health()
  const where = `${url}${isWildcardHost(host) ? ` (host ${host}: every interface listens)` : ''}`
  if (listening) return `mock-nvr listening on ${where}\n`
  return `mock-nvr ready at ${where}: the device starts offline, by its schedule, and refuses connections ${until === undefined ? 'until its health changes' : `until ${until}`}\n`
}

async function startFleet (io: CommandLineIo, options: Partial<ResolvedOptions>, argv: readonly string[]): Promise<number | undefined> {
  let fleet
  try {
    /* c8 ignore next: tsx wraps each import() in a CommonJS interop check that an ES module never takes */
    const { startFleetCommand } = await import('./fleet-command.js')
    fleet = await startFleetCommand({ prettyLogs: io.stdout.isTTY === true, ...options }, url => io.stdout.write(`mock-nvr fleet control on ${url}\n`), { port: givenBy(argv, 'port'), shard: givenBy(argv, 'shard') })
  } catch (error) {
    return await failToStart(io, error, argv, options)
  }
  io.serving(fleet)
  // Not log lines either: the first says where the control address is, this last one that every device listens.
  io.stdout.write(`mock-nvr fleet of ${fleet.devices.length} devices ready\n`)
  return undefined
}

// Every option was checked as the user gave it, so what fails here is the start itself: files, the port, a device.
async function failToStart (io: CommandLineIo, error: unknown, argv: readonly string[], files: NamedFiles): Promise<number> {
  /* c8 ignore next: tsx wraps each import() in a CommonJS interop check that an ES module never takes */
  const { describeStartFailure } = await import('./start-failure.js')
  // A start stops at the first file it cannot use: every file named is then checked, to report them all at once.
  const problems = error instanceof FixtureError || error instanceof ScheduleFileError ? await problemsOfFiles(files) : []
  return fail(io, EXIT_FAILURE, problems.length > 0 ? problems.join('\nmock-nvr: ') : describeStartFailure(error, givenBy(argv, 'host')))
}

// Given the files, or the command line whose flags could not all be read.
async function problemsOfFiles (files: NamedFiles | { argv: readonly string[], env: NodeJS.ProcessEnv }): Promise<string[]> {
  /* c8 ignore next: tsx wraps each import() in a CommonJS interop check that an ES module never takes */
  const { fileProblems, namedFiles } = await import('./file-problems.js')
  return await fileProblems('argv' in files ? namedFiles(files.argv, files.env) : files)
}

function sentence (message: string): string {
  return message.endsWith('?') ? message : `${message}.`
}

function fail (io: CommandLineIo, exitCode: number, message: string): number {
  io.stderr.write(`mock-nvr: ${message}\n`)
  return exitCode
}
