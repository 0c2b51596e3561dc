import type { ResolvedOptions } from '../config/options-schema.js'
import { portRangeProblem, portsFromFleetPort, shardCountProblem } from '../config/combination-problems.js'
import { readFleetFile } from '../fleet/fleet-file.js'
import type { FleetOptions } from '../fleet/fleet-options.js'
import { startMockFleet, type MockFleet } from '../fleet/start-mock-fleet.js'
import { UsageError } from '../errors/errors.js'

/**
 * Starts the fleet a command line asks for: --devices N, or the devices of --fleet FILE, whose top level
 * overrides the flags and each device its top level. The control line is written as soon as it listens.
 * `givenBy` names the flag or variable each option came from, for a message about it and the fleet file.
 */
/** Where the options a fleet file is checked against came from: the flag, or its variable. */
export interface GivenBy {
  port: string
  shard: string
}

export async function startFleetCommand (options: Partial<ResolvedOptions>, writeControlLine: (url: string) => void, givenBy: GivenBy = { port: '--port', shard: '--shard' }): Promise<MockFleet> {
  const { devices: count, fleet: file, ...shared } = options
  const onControlListening = writeControlLine
  // Called for --devices N or --fleet FILE, which the options' checks let through one at a time.
  if (file === undefined) return await startMockFleet({ ...shared, count: count as number, onControlListening })
  const { defaults, devices } = await readFleetFile(file)
  // The library would name its own options; the CLI names the flag and the file.
  const placed = portsFromFleetPort(devices)
  const edge = portRangeProblem(shared.port as number, placed, 'devices', () => `the ${placed === devices.length ? '' : 'first '}${placed} devices of ${file} (--fleet)`)
  if (edge !== undefined) throw new UsageError(edge.sentence([givenBy.port, ''], String))
  const slices = shardCountProblem(shared.shard, devices.length, 'devices')
  if (slices !== undefined) throw new UsageError(slices.sentence([givenBy.shard, file], String))
  // The file's data replaces the flags' data: fixtures and generate never meet.
  const ownData = defaults.fixtures !== undefined || defaults.generate !== undefined
  const { fixtures, generate, ...rest } = shared
  const fleet: FleetOptions = { ...(ownData ? rest : shared), ...defaults, devices, onControlListening }
  return await startMockFleet(fleet)
}
