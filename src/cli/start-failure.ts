import { FixtureError } from '../data/fixture-validation.js'
import { ScheduleFileError } from '../start/device-schedule.js'

/** One sentence on why the server could not start, for the CLI to print instead of a stack trace. */
export function describeStartFailure (error: unknown): string {
  if (error instanceof FixtureError || error instanceof ScheduleFileError) return error.message
  if ((error as Error).name === 'FleetListenError') return `cannot listen: ${(error as Error).message}`
  const { code, address, port } = error as NodeJS.ErrnoException & { address?: string, port?: number }
  if (code === 'EADDRINUSE') return `cannot listen: port ${String(port)} on ${String(address)} is already in use`
  if (code === 'EADDRNOTAVAIL') return `cannot listen: ${String(address)} is not an address of this machine`
  return `cannot start: ${(error as Error).message}`
}
