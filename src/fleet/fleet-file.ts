import { dirname, resolve } from 'node:path'
import { Type, type Static } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { readJsonFile } from '../data/fixtures.js'
import { parseGenerateSize } from '../data/generate-size.js'
import { SharedOptionSchemas } from '../config/shared-options.js'
import { RateLimitSchema, ScopedTokensSchema } from '../contract/schemas.js'
import { listValueProblems } from '../util/value-errors.js'
import { DEVICE_NAME_PATTERN } from './device-names.js'
import { MAX_TIMER_MS } from '../util/delay.js'
import { parseHealthSpec, problemsOfSchedule } from '../health/health-spec.js'
import type { ValueProblem } from '../util/value-errors.js'
import type { FleetDeviceOptions, DeviceSettings } from './fleet-options.js'
import { FixtureError, type FixtureProblem, HealthSpecError } from '../errors/errors.js'

/** What a device of the file may set, and the file's top level sets for every device. */
const deviceFields = {
  /** A fixture file or folder, relative to the fleet file; devices naming the same one share its data. */
  fixtures: Type.Optional(Type.String({ minLength: 1 })),
  /** Generated data, CAMERASxLINES, e.g. 10x5; its seed is derived from the fleet's seed and the name unless seed is set. */
  generate: Type.Optional(Type.String({ minLength: 1 })),
  seed: Type.Optional(SharedOptionSchemas.seed),
  tokens: Type.Optional(SharedOptionSchemas.tokens),
  scopedTokens: Type.Optional(ScopedTokensSchema),
  latency: SharedOptionSchemas.latency,
  rateLimit: Type.Optional(RateLimitSchema),
  /** Its health over time: a state, steps or a pattern; checked with the schedules' own checks. */
  health: Type.Optional(Type.Unknown()),
  /** Edit its data every this many milliseconds. */
  drift: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TIMER_MS }))
}

const FleetDeviceSchema = Type.Object({
  name: Type.String({ pattern: DEVICE_NAME_PATTERN, description: 'letters, digits, \'.\', \'_\' and \'-\', at most 64' }),
  port: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  ...deviceFields
}, { additionalProperties: false })

/** A fleet file: the devices, and settings at the top that every device takes unless it sets its own. */
export const FleetFileSchema = Type.Object({
  ...deviceFields,
  devices: Type.Array(FleetDeviceSchema, { minItems: 1 })
}, { additionalProperties: false })
type FleetFileValue = Static<typeof FleetFileSchema>

const checkFleetFile = TypeCompiler.Compile(FleetFileSchema)

/** A fleet file read and checked: the settings of every device, and each device's own. */
export interface FleetFile {
  defaults: DeviceSettings
  devices: FleetDeviceOptions[]
}

/** Reads and checks a fleet file; every problem is named by file, JSON path and what is wrong (FixtureError). */
export async function readFleetFile (file: string): Promise<FleetFile> {
  const value = await readJsonFile(file).catch((error: FixtureError) => { throw new FixtureError(error.problems, 'Invalid fleet file') })
  const problems: FixtureProblem[] = checkFleetFile.Check(value)
    ? problemsAcross(value, file)
    : listValueProblems(checkFleetFile, value).map(problem => ({ file, ...problem }))
  if (problems.length > 0) throw new FixtureError(problems, 'Invalid fleet file')
  const { devices, ...defaults } = value as FleetFileValue
  const folder = dirname(resolve(file))
  return { defaults: settingsOf(defaults, folder), devices: devices.map(({ name, port, ...settings }) => ({ name, ...(port === undefined ? {} : { port }), ...settingsOf(settings, folder) })) }
}

// What one value cannot say: names and ports twice, data from two sources, a size that does not parse.
function problemsAcross ({ devices, ...defaults }: FleetFileValue, file: string): FixtureProblem[] {
  const problems: FixtureProblem[] = []
  const names = new Map<string, number>()
  const ports = new Map<number, number>()
  const checkSettings = (settings: Static<typeof FleetDeviceSchema> | typeof defaults, path: string) => {
    if (settings.generate !== undefined) {
      const size = parseGenerateSize(settings.generate)
      if (typeof size === 'string') problems.push({ file, path: `${path}/generate`, message: size })
    }
    if (settings.generate !== undefined && settings.fixtures !== undefined) problems.push({ file, path: `${path}/generate`, message: 'cannot be given with fixtures: choose one source of data' })
    if (settings.health !== undefined) problems.push(...healthProblems(settings.health, `${path}/health`).map(problem => ({ file, ...problem })))
  }
  checkSettings(defaults, '')
  devices.forEach((device, index) => {
    const path = `/devices/${index}`
    const sameName = names.get(device.name)
    if (sameName !== undefined) problems.push({ file, path: `${path}/name`, message: `"${device.name}" is the name of /devices/${sameName} too` })
    names.set(device.name, index)
    if (device.port !== undefined && device.port !== 0) {
      const samePort = ports.get(device.port)
      if (samePort !== undefined) problems.push({ file, path: `${path}/port`, message: `${device.port} is the port of /devices/${samePort} too` })
      ports.set(device.port, index)
    }
    checkSettings(device, path)
  })
  return problems
}

function settingsOf ({ fixtures, generate, health, ...rest }: Omit<Static<typeof FleetDeviceSchema>, 'name' | 'port'>, folder: string): DeviceSettings {
  return {
    ...rest,
    // Checked by problemsAcross.
    ...(health === undefined ? {} : { health: health as DeviceSettings['health'] }),
    ...(fixtures === undefined ? {} : { fixtures: resolve(folder, fixtures) }),
    ...(generate === undefined ? {} : { generate: parseGenerateSize(generate) as Exclude<ReturnType<typeof parseGenerateSize>, string> })
  }
}

// A state ({ "state": … }) or a plan (steps or a pattern), each problem under the path of the field.
function healthProblems (health: unknown, path: string): ValueProblem[] {
  if (typeof health === 'object' && health !== null && 'state' in health) {
    try {
      parseHealthSpec(health)
      return []
    } catch (error) {
      return (error as HealthSpecError).problems.map(problem => ({ path: `${path}${problem.path}`, message: problem.message }))
    }
  }
  return problemsOfSchedule({ health }, path.slice(0, -'/health'.length))
}
