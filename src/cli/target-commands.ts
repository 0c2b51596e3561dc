import { checkWritable, fixtureText, writeFileAtomically } from '../target-client/fixture-file.js'
import { recordWithNotes } from '../target-link/record-target.js'
import { RecordRefusedError } from '../errors/errors.js'
import { renderJunit } from '../target-link/report-junit.js'
import { renderReport } from '../target-link/report-text.js'
import { connectionFrom, type TargetLinkOptions } from '../target-client/target-connection.js'
import { verifyTarget, type VerifyReport } from '../target-link/verify-target.js'
import { readCaFile } from './ca-file.js'
import { readTargetToken } from './target-token.js'
import { targetHelpText, parseTargetArgs, type TargetArgs, type TargetCommandName } from './target-args.js'
import type { FixtureData } from '../contract/schemas.js'
import { FixtureWriteError, TargetLinkError, UsageError } from '../errors/errors.js'

/** Where a target command writes, and what stops it (Ctrl-C). */
export interface CommandIo {
  stdout: { write: (text: string) => unknown, isTTY?: boolean }
  stderr: { write: (text: string) => unknown }
  signal?: AbortSignal
  /** Where MOCK_NVR_DEVICE_TOKEN is read from. */
  env?: NodeJS.ProcessEnv
}

const EXIT_OK = 0
const EXIT_FAILURE = 1
const EXIT_USAGE = 2

/** Runs `mock-nvr verify …` or `mock-nvr record …` and returns the exit code; nothing here throws. */
export async function runTargetCommand (command: TargetCommandName, argv: readonly string[], io: CommandIo): Promise<number> {
  let args: TargetArgs
  let options: TargetLinkOptions
  try {
    args = parseTargetArgs(command, argv)
    if (args.help) {
      io.stdout.write(targetHelpText(command))
      return EXIT_OK
    }
    options = await linkOptions(args, io)
  } catch (error) {
    io.stderr.write(`mock-nvr: ${(error as Error).message}. Run mock-nvr ${command} --help for the flags.\n`)
    return EXIT_USAGE
  }
  if (args.insecure) io.stderr.write('mock-nvr: warning: --insecure: the target\'s certificate is not checked, so anyone between here and the target could read the token\n')
  try {
    return command === 'verify' ? await verify(args, options, io) : await record(args, options, io)
  } catch (error) {
    // Only errors of these kinds are expected; each message is one line without the token.
    /* c8 ignore next: anything else is a bug, and its stack is wanted */
    if (!(error instanceof TargetLinkError || error instanceof FixtureWriteError)) throw error
    io.stderr.write(`mock-nvr: ${error.message}${command === 'record' ? ': nothing written' : ''}\n`)
    return EXIT_FAILURE
  }
}

async function linkOptions (args: TargetArgs, { signal, env = {} }: CommandIo): Promise<TargetLinkOptions> {
  const { token, source } = await readTargetToken(args, env)
  const ca = args.ca === undefined ? undefined : await readCaFile(args.ca)
  const options: TargetLinkOptions = {
    target: args.target as string,
    token,
    cameras: args.cameras,
    ...(args.timeout === undefined ? {} : { timeout: args.timeout }),
    ...(args.runTimeout === undefined ? {} : { runTimeout: args.runTimeout }),
    ...(ca === undefined ? {} : { ca }),
    insecure: args.insecure,
    ...(signal === undefined ? {} : { signal })
  }
  try {
    // Checked before any request, so a bad value is a usage error naming its flag.
    connectionFrom(options)
  } catch (error) {
    const { option, message } = error as TargetLinkError
    throw new UsageError(`${option === 'token' ? source : `--${FLAGS[option as string] ?? option}`}: ${message}`)
  }
  return options
}

const FLAGS: Record<string, string> = { cameras: 'camera', runTimeout: 'run-timeout' }

async function verify (args: TargetArgs, options: TargetLinkOptions, io: CommandIo): Promise<number> {
  if (args.junit !== undefined) await checkWritable(args.junit, { replace: true })
  const report = await verifyTarget(options)
  if (args.junit !== undefined) await writeFileAtomically(args.junit, renderJunit(report, { strict: args.strict }), { replace: true })
  writeReport(report, args, io)
  const failed = report.violations.length > 0 || (args.strict && report.differences.length > 0)
  return failed ? EXIT_FAILURE : EXIT_OK
}

async function record (args: TargetArgs, options: TargetLinkOptions, io: CommandIo): Promise<number> {
  const out = args.out as string
  // Before the target is read: a run can take minutes.
  await checkWritable(out, { replace: args.force })
  let recording
  try {
    recording = await recordWithNotes(options)
  } catch (error) {
    if (!(error instanceof RecordRefusedError)) throw error
    writeReport(error.report, args, io)
    io.stderr.write(`mock-nvr: ${error.message}; ${out} not written\n`)
    return EXIT_FAILURE
  }
  await writeFileAtomically(out, fixtureText(recording.data), { replace: args.force })
  // A recording always holds both lists, empty or not; FixtureData leaves them optional for hand-written files.
  const data = recording.data as Required<FixtureData>
  const cameras = data.cameras.length
  const lines = data.counting_lines.length
  for (const camera of recording.reformatted) {
    io.stderr.write(`mock-nvr: note: camera ${JSON.stringify(camera)}: the target formats its answers otherwise (key order, spacing or number form); mock-nvr serves the same JSON, in its own bytes\n`)
  }
  for (const departure of recording.departures) {
    io.stderr.write(`mock-nvr: note: the target's answers depart from mock-nvr's where the seed does not rule: ${departure}; the lines are recorded, and mock-nvr answers in its own way\n`)
  }
  if (args.json) io.stdout.write(`${JSON.stringify({ file: out, cameras, countingLines: lines, reformatted: recording.reformatted, departures: recording.departures })}\n`)
  else io.stdout.write(`recorded ${cameras} camera${cameras === 1 ? '' : 's'} and ${lines} counting line${lines === 1 ? '' : 's'} into ${out}\n`)
  return EXIT_OK
}

function writeReport (report: VerifyReport, args: TargetArgs, io: CommandIo): void {
  if (args.json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
  else io.stdout.write(renderReport(report, { colour: io.stdout.isTTY === true, strict: args.strict, contractOnly: args.command === 'record' }))
}
