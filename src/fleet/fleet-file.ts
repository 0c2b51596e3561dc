import { stat } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { FixtureError, type FixtureProblem } from '../errors/errors.js'
import { describeFsError, readJsonFile } from '../data/fixtures.js'
import { asFileProblem } from '../config/option-problems.js'
import { devicesProblems, topSettingsProblems } from '../config/fleet-problems.js'
import type { DeviceSettings, FleetDeviceOptions } from '../config/device-settings.js'

/** A fleet file read and checked: the settings of every device (its top level), and each device's own. */
export interface FleetFile {
  defaults: DeviceSettings
  devices: FleetDeviceOptions[]
}

/**
 * Reads and checks a fleet file whole: its fields, as startMockFleet checks its options, and the fixture paths it
 * names. Every problem is named by file, JSON path and what is wrong, all in one FixtureError.
 */
export async function readFleetFile (file: string): Promise<FleetFile> {
  const value = await readJsonFile(file).catch((error: FixtureError) => { throw new FixtureError(error.problems, 'Invalid fleet file') })
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new FixtureError([{ file, path: '', message: 'must be an object: { "devices": [ … ] }' }], 'Invalid fleet file')
  }
  const { devices, ...defaults } = value as { devices?: unknown } & Record<string, unknown>
  const folder = dirname(resolve(file))
  const problems: FixtureProblem[] = [...topSettingsProblems(defaults), ...devicesProblems(devices)].map(problem => ({ file, ...asFileProblem(problem) }))
  problems.push(...await missingFixtures(value as Record<string, unknown>, folder, file))
  if (problems.length > 0) throw new FixtureError(problems, 'Invalid fleet file')
  return {
    defaults: withFixturesFrom(defaults as DeviceSettings, folder),
    devices: (devices as FleetDeviceOptions[]).map(device => withFixturesFrom(device, folder))
  }
}

function withFixturesFrom<T extends DeviceSettings> (settings: T, folder: string): T {
  return settings.fixtures === undefined ? settings : { ...settings, fixtures: resolve(folder, settings.fixtures) }
}

// Each fixture path the file names, checked before anything listens: one that is not there names the field.
async function missingFixtures ({ fixtures, devices }: Record<string, unknown>, folder: string, file: string): Promise<FixtureProblem[]> {
  const named = [{ path: '/fixtures', fixtures }, ...(Array.isArray(devices) ? devices : []).map((device: { fixtures?: unknown } | null, index) => ({ path: `/devices/${index}/fixtures`, fixtures: device?.fixtures }))]
  const problems: FixtureProblem[] = []
  for (const { path, fixtures: relative } of named) {
    if (typeof relative !== 'string' || relative === '') continue
    const absolute = resolve(folder, relative)
    await stat(absolute).catch((error: unknown) => { problems.push({ file, path, message: `${JSON.stringify(relative)} (${absolute}): ${describeFsError(error)}` }) })
  }
  return problems
}
