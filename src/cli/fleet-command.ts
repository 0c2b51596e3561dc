import type { ResolvedOptions } from '../config/options-schema.js'
import { shardCountProblem } from '../config/combination-problems.js'
import { OptionsError } from '../config/option-problems.js'
import { readFleetFile } from '../fleet/fleet-file.js'
import type { FleetOptions } from '../fleet/fleet-options.js'
import { startMockFleet, type MockFleet } from '../fleet/start-mock-fleet.js'

/**
 * Starts the fleet a command line asks for: --devices N, or the devices of --fleet FILE, whose top level
 * overrides the flags and each device its top level. The control line is written as soon as it listens.
 * `shardGivenBy` names where --shard came from, for a fleet file with fewer devices than its slices.
 */
export async function startFleetCommand (options: Partial<ResolvedOptions>, writeControlLine: (url: string) => void, shardGivenBy = '--shard'): Promise<MockFleet> {
  const { devices: count, fleet: file, watch, ...shared } = options
  const onControlListening = writeControlLine
  // Called for --devices N or --fleet FILE, which the options' checks let through one at a time.
  if (file === undefined) return await startMockFleet({ ...shared, count: count as number, onControlListening })
  const { defaults, devices } = await readFleetFile(file)
  const slices = shardCountProblem(shared.shard, devices.length, 'devices')
  if (slices !== undefined) throw new OptionsError(slices.sentence([shardGivenBy, file], String))
  // The file's data replaces the flags' data: fixtures and generate never meet.
  const ownData = defaults.fixtures !== undefined || defaults.generate !== undefined
  const { fixtures, generate, ...rest } = shared
  const fleet: FleetOptions = { ...(ownData ? rest : shared), ...defaults, devices, onControlListening }
  return await startMockFleet(fleet)
}
