import { loadFixtures } from '../data/fixtures.js'
import { readFleetFile } from '../fleet/fleet-file.js'
import { loadDeviceSchedule } from '../start/device-schedule.js'
import type { DeviceSettings } from '../config/device-settings.js'
import { typedValues } from './read-flags.js'
import { SERVE_FLAGS } from './serve-flags.js'

/** The files a serving command line names. */
export interface NamedFiles {
  fixtures?: string | undefined
  schedule?: string | undefined
  fleet?: string | undefined
}

/**
 * Every file a command line names, each read and checked whole: the fixtures, the schedule, the fleet file and
 * the fixtures it names. The messages of the files that cannot be used, one per file; none when every file is
 * good. A run that stops on one file (or on its flags) reports the others with it, in one run.
 */
export async function fileProblems ({ fixtures, schedule, fleet }: NamedFiles): Promise<string[]> {
  const settings: DeviceSettings[] = fixtures === undefined ? [] : [{ fixtures }]
  const problems: string[] = []
  if (fleet !== undefined) {
    try {
      const file = await readFleetFile(fleet)
      settings.push(file.defaults, ...file.devices)
    } catch (error) {
      problems.push((error as Error).message)
    }
  }
  const fixturePaths = new Set(settings.flatMap(({ fixtures }) => fixtures === undefined ? [] : [fixtures]))
  const checks = [
    ...[...fixturePaths].map(async path => await loadFixtures(path)),
    ...(schedule === undefined ? [] : [loadDeviceSchedule({ schedule })])
  ]
  for (const result of await Promise.allSettled(checks)) if (result.status === 'rejected') problems.push((result.reason as Error).message)
  return problems
}

/**
 * The files named on a command line whose flags could not all be read: each flag's value as typed, else its
 * twin's. Read leniently, as only the files are wanted here; the flags' own problems are reported already.
 */
export function namedFiles (argv: readonly string[], env: NodeJS.ProcessEnv): NamedFiles {
  const flags = ['fixtures', 'schedule', 'fleet'] as const
  const typed = typedValues(argv, flags)
  const pick = (flag: typeof flags[number]) => {
    const value = typed[flag] ?? env[SERVE_FLAGS[flag]?.twin as string]
    return value === undefined || value === '' ? undefined : value
  }
  return { fixtures: pick('fixtures'), schedule: pick('schedule'), fleet: pick('fleet') }
}
