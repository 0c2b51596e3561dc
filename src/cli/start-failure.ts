import { UNRESOLVED_HOST_CODES } from '../start/listen-error.js'
import { readFileSync } from 'node:fs'
import { FixtureError, ScheduleFileError, ListenError, UsageError, FleetListenError } from '../errors/errors.js'

/**
 * One sentence on why the server could not start, for the CLI to print instead of a stack trace. `hostGivenBy`
 * names where the host came from (--host or MOCK_NVR_HOST), for a host that does not resolve.
 */
export function describeStartFailure (error: unknown, hostGivenBy = '--host', openFiles: () => number | undefined = openFilesLimit): string {
  if (error instanceof FixtureError || error instanceof ScheduleFileError || error instanceof UsageError) return error.message
  if (error instanceof FleetListenError && error.systemCode === 'EMFILE') return tooManyOpenFiles(error, openFiles())
  if ((error as Error).name === 'FleetListenError') return `cannot listen: ${(error as Error).message}`
  if (error instanceof ListenError) {
    if (UNRESOLVED_HOST_CODES.has(error.systemCode)) return `${error.problem} given by ${hostGivenBy}`
    // The library's option, in the CLI's words: controlPort is --control-port.
    return error.option === 'controlPort' ? `cannot listen: ${error.problem}; choose another port with --control-port` : error.message
  }
  return `cannot start: ${(error as Error).message}`
}

// The limit in force, what the fleet needs and the command that raises it, as the Fleet page says.
function tooManyOpenFiles ({ device, port, devices }: FleetListenError, limit: number | undefined): string {
  const fleet = devices === undefined ? 'the fleet' : `a fleet of ${devices} devices`
  const needs = devices === undefined ? 'one per device' : `${devices} for its listeners`
  const raise = devices === undefined ? 'ulimit -n 65536' : `ulimit -n ${Math.ceil((2 * devices + 500) / 1000) * 1000}`
  const allowed = limit === undefined ? 'this process may not open that many files' : `this process may open ${limit} files (ulimit -n)`
  return `cannot listen: device ${device} cannot listen on port ${port}: too many open files (EMFILE): ${allowed}, and ${fleet} needs ${needs}, one more for each open connection and a few hundred for Node; raise the limit in the shell that starts mock-nvr, like ${raise}, and start again; no device was started`
}

/** The soft limit of open files of this process, from Linux's /proc/self/limits; undefined where it cannot be read. */
export function openFilesLimit (read = () => readFileSync('/proc/self/limits', 'utf8')): number | undefined {
  try {
    const match = /^Max open files\s+(\d+)/m.exec(read())
    return match === null ? undefined : Number(match[1])
  } catch {
    return undefined
  }
}
