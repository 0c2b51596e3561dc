import { UNRESOLVED_HOST_CODES } from '../start/listen-error.js'
import { FixtureError, ScheduleFileError, ListenError, UsageError } from '../errors/errors.js'

/**
 * One sentence on why the server could not start, for the CLI to print instead of a stack trace. `hostGivenBy`
 * names where the host came from (--host or MOCK_NVR_HOST), for a host that does not resolve.
 */
export function describeStartFailure (error: unknown, hostGivenBy = '--host'): string {
  if (error instanceof FixtureError || error instanceof ScheduleFileError || error instanceof UsageError) return error.message
  if ((error as Error).name === 'FleetListenError') return `cannot listen: ${(error as Error).message}`
  if (error instanceof ListenError) {
    if (UNRESOLVED_HOST_CODES.has(error.systemCode)) return `${error.problem} given by ${hostGivenBy}`
    // The library's option, in the CLI's words: controlPort is --control-port.
    return error.option === 'controlPort' ? `cannot listen: ${error.problem}; choose another port with --control-port` : error.message
  }
  return `cannot start: ${(error as Error).message}`
}
