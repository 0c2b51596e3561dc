import type { VerifyReport } from './target-report.js'
import { THROWN_ERROR_CODES, type ErrorCode } from './catalogue.js'
import { formatValueProblem, type ValueProblem } from '../util/value-errors.js'

// Every error class mock-nvr throws, as undici keeps its own in lib/core/errors.js: each with its stable `code` from
// the catalogue.

/** Any error mock-nvr throws: `code` is its stable code from the catalogue (errors/catalogue.ts). */
export class MockNvrError extends Error {
  readonly code: string

  constructor (code: string, message: string) {
    super(message)
    this.code = code
  }
}

/**
 * An error that lists what is wrong, one problem per JSON path: checked values and files. An admin call that meets one
 * answers 400 with the list as `problems` (wire/errors.ts).
 */
export class ProblemsError<Problem extends ValueProblem = ValueProblem> extends MockNvrError {
  readonly problems: Problem[]

  constructor (code: string, message: string, problems: Problem[]) {
    super(code, message)
    this.problems = problems
  }
}

// "Invalid fault: /status: must be at least 100; /times: must be at least 1".
function inline (title: string, problems: readonly ValueProblem[]): string {
  return `${title}: ${problems.map(formatValueProblem).join('; ')}`
}

/** Scoped tokens that cannot be scoped; `problems` lists each JSON path and what is wrong there, never a token. */
export class ScopedTokensError extends ProblemsError {
  constructor (problems: ValueProblem[]) {
    super(THROWN_ERROR_CODES.ScopedTokensError, inline('Invalid scoped tokens', problems), problems)
    this.name = 'ScopedTokensError'
  }
}

/** A fault spec that cannot be injected; `problems` lists each JSON path and what is wrong there. */
export class InvalidFaultError extends ProblemsError {
  constructor (problems: ValueProblem[]) {
    super(THROWN_ERROR_CODES.InvalidFaultError, inline('Invalid fault', problems), problems)
    this.name = 'InvalidFaultError'
  }
}

/** A health state or schedule that cannot be set; `problems` lists each JSON path and what is wrong there. */
export class HealthSpecError extends ProblemsError {
  constructor (problems: ValueProblem[]) {
    super(THROWN_ERROR_CODES.HealthSpecError, inline('Invalid health', problems), problems)
    this.name = 'HealthSpecError'
  }
}

/** One thing wrong in a file: which file, where in it (a JSON Pointer) and what. */
export interface FileProblem extends ValueProblem {
  file: string
}

/** A problem of fixture data, as FixtureError lists it. */
export type FixtureProblem = FileProblem

/** "fixtures/a.json: /cameras/0/id: must not be empty". */
export function formatFileProblem ({ file, path, message }: FileProblem): string {
  return path === '' ? `${file}: ${message}` : `${file}: ${path}: ${message}`
}

const MAX_LISTED_PROBLEMS = 20

// The title, then one problem a line; past twenty, how many more.
function listed (title: string, problems: readonly FileProblem[]): string {
  const shown = problems.slice(0, MAX_LISTED_PROBLEMS).map(formatFileProblem)
  if (problems.length > shown.length) shown.push(`…and ${problems.length - shown.length} more`)
  return `${title}:\n${shown.map(line => `  ${line}`).join('\n')}`
}

/** Fixture data (or a fleet file) that cannot be used. Its message lists every problem, one per line. */
export class FixtureError extends ProblemsError<FileProblem> {
  constructor (problems: FileProblem[], title = 'Invalid fixtures') {
    super(THROWN_ERROR_CODES.FixtureError, listed(title, problems), problems)
    this.name = 'FixtureError'
  }
}

/** A schedule file that cannot be used: each problem named with the file, its JSON path and what is wrong. */
export class ScheduleFileError extends ProblemsError<FileProblem> {
  constructor (file: string, problems: ValueProblem[]) {
    const inFile = problems.map(({ path, message }) => ({ file, path, message }))
    super(THROWN_ERROR_CODES.ScheduleFileError, listed('Invalid schedule', inFile), inFile)
    this.name = 'ScheduleFileError'
  }
}

/**
 * Options that cannot be used; the message names each option by its key, as the caller passed it, one line a
 * problem (config/option-problems.ts words them).
 */
export class OptionsError extends MockNvrError {
  constructor (message: string) {
    super(THROWN_ERROR_CODES.OptionsError, message)
    this.name = 'OptionsError'
  }
}

/**
 * A value a running device's setting refuses, by its verb (a rate limit of 0): `setting` names the setting. The
 * scoped tokens, whose problems are listed one by one, throw ScopedTokensError.
 */
export class SettingError extends MockNvrError {
  readonly setting: string

  constructor (setting: string, message: string) {
    super(THROWN_ERROR_CODES.SettingError, message)
    this.name = 'SettingError'
    this.setting = setting
  }
}

/** A clock that cannot be moved as asked (clock.advance): the real clock, or a time that is no whole milliseconds from 0. */
export class ClockError extends MockNvrError {
  constructor (message: string) {
    super(THROWN_ERROR_CODES.ClockError, message)
    this.name = 'ClockError'
  }
}

/** A recording refused because the target breaks the contract; `report` says what and where, as verify does. */
export class RecordRefusedError extends MockNvrError {
  readonly report: VerifyReport

  constructor (report: VerifyReport) {
    super(THROWN_ERROR_CODES.RecordRefusedError, `the target breaks the contract (${report.violations.length} violation${report.violations.length === 1 ? '' : 's'}): nothing recorded`)
    this.name = 'RecordRefusedError'
    this.report = report
  }
}

/** A command line or environment the CLI cannot use: the message is the one line it prints. */
export class UsageError extends MockNvrError {
  constructor (message: string) {
    super(THROWN_ERROR_CODES.UsageError, message)
    this.name = 'UsageError'
  }
}

/** A TLS certificate or key file that cannot be served with; the message names the file. */
export class TlsError extends MockNvrError {
  constructor (message: string) {
    super(THROWN_ERROR_CODES.TlsError, message)
    this.name = 'TlsError'
  }
}

/** The server could not listen: the port in use, an address not of this machine, a host that does not resolve. */
export class ListenError extends MockNvrError {
  /** The system's code: EADDRINUSE, EADDRNOTAVAIL, EACCES, ENOTFOUND or EAI_AGAIN. */
  readonly systemCode: string
  /** The sentence without "cannot listen: ", for a caller that names where the host or port came from. */
  readonly problem: string
  /** The option that chose the port, when it is not `port`: a fleet's control address is chosen by controlPort. */
  readonly option?: string

  constructor (systemCode: string, problem: string, option?: string) {
    super(THROWN_ERROR_CODES.ListenError, `cannot listen: ${problem}${option === undefined ? '' : `; choose another port with option ${option}`}`)
    this.name = 'ListenError'
    this.systemCode = systemCode
    this.problem = problem
    if (option !== undefined) this.option = option
  }
}

/**
 * A device of a fleet could not listen; whatever listened was closed, so no device was started. `devices` is how
 * many the process was starting, for a message on the open files they need (`systemCode` EMFILE).
 */
export class FleetListenError extends MockNvrError {
  /** Node's code of the failure: EADDRINUSE, EMFILE (too many open files) … */
  readonly systemCode: string | undefined

  constructor (readonly device: string, readonly port: number, cause: { code?: string | undefined, message: string }, readonly devices?: number) {
    super(THROWN_ERROR_CODES.FleetListenError, `device ${device} cannot listen on port ${port}: ${fleetListenProblem(cause, devices)}; no device was started`)
    this.name = 'FleetListenError'
    this.systemCode = cause.code
  }
}

function fleetListenProblem ({ code, message }: { code?: string | undefined, message: string }, devices: number | undefined): string {
  if (code === 'EADDRINUSE') return 'it is already in use'
  if (code !== 'EMFILE') return message
  const fleet = devices === undefined ? 'a fleet' : `a fleet of ${devices} devices`
  return `too many open files (EMFILE): ${fleet} needs a file descriptor for each device, one for each open connection and a few hundred more; raise the limit of open files (ulimit -n) and start again`
}

/** An unusable target or option of verifyTarget and recordTarget, in one line. */
export class TargetLinkError extends MockNvrError {
  /** The option at fault, when an option is: target, token, cameras, timeout, runTimeout, maxBodyBytes or ca. */
  readonly option: string | undefined

  constructor (message: string, option?: string) {
    super(THROWN_ERROR_CODES.TargetLinkError, message)
    this.name = 'TargetLinkError'
    this.option = option
  }
}

/** The target gave no answer to a request: refused, timed out, cut off, or a certificate not trusted. */
export class NoAnswerError extends MockNvrError {
  /** True when the target cannot be reached at all (refused, unknown host, untrusted certificate): nothing else will work either. */
  readonly unreachable: boolean

  constructor (reason: string, unreachable = false) {
    super(THROWN_ERROR_CODES.NoAnswerError, reason)
    this.name = 'NoAnswerError'
    this.unreachable = unreachable
  }
}

/** An answer of the target whose body cannot be decoded: an unknown Content-Encoding, or too large once inflated. */
export class BodyDecodingError extends MockNvrError {
  readonly tooLarge: boolean

  constructor (message: string, tooLarge = false) {
    super(THROWN_ERROR_CODES.BodyDecodingError, message)
    this.name = 'BodyDecodingError'
    this.tooLarge = tooLarge
  }
}

/** A recorded fixture file that could not be written. */
export class FixtureWriteError extends MockNvrError {
  constructor (message: string) {
    super(THROWN_ERROR_CODES.FixtureWriteError, message)
    this.name = 'FixtureWriteError'
  }
}

// Error as V8 has it (Node, Chromium): elsewhere its stackTraceLimit is a property nobody reads.
const V8Error = Error as ErrorConstructor & { stackTraceLimit?: number }

/**
 * A refusal the API answers with: a status, a stable error code (`ERROR_CODES`), one human sentence, any headers
 * it needs, and for a body that is not valid, its problems.
 */
export class ApiError extends MockNvrError {
  readonly statusCode: number
  readonly headers: Readonly<Record<string, string>>
  readonly problems: ValueProblem[] | undefined

  constructor (statusCode: number, code: ErrorCode | (string & {}), message: string, headers: Record<string, string> = {}, problems?: ValueProblem[]) {
    // An answer the API sends, not a failure to trace: its status, code and message say what happened, and capturing
    // a stack cost a refused request more than the rest of its answer under load (docs/performance.md, "Refusals under load").
    const stackTraceLimit = V8Error.stackTraceLimit
    V8Error.stackTraceLimit = 0
    super(code, message)
    V8Error.stackTraceLimit = stackTraceLimit
    this.name = 'ApiError'
    this.statusCode = statusCode
    this.headers = headers
    this.problems = problems
  }
}
