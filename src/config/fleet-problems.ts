import { Type } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { DeviceSettingsSchema, FleetDevicesSchema, type DeviceSettings } from './device-settings.js'
import { fieldProblem, listOptionsProblems, nestedValueProblems, schemaProblems, type OptionsProblem } from './option-problems.js'

const checkDevices = TypeCompiler.Compile(Type.Object({ devices: FleetDevicesSchema }))
const checkSettings = TypeCompiler.Compile(DeviceSettingsSchema)

/**
 * Every problem of a fleet's devices, as startMockFleet's devices and a fleet file's list them: each device's
 * fields, names and ports given twice, data from two sources. Named under `devices` (option devices[2].name, or
 * /devices/2/name in a file).
 */
export function devicesProblems (devices: unknown): OptionsProblem[] {
  const problems = schemaProblems(checkDevices, { devices })
  if (!Array.isArray(devices)) return problems
  const names = new Map<unknown, number>()
  const ports = new Map<unknown, number>()
  devices.forEach((device: unknown, index) => {
    if (typeof device !== 'object' || device === null) return
    const { name, port, ...settings } = device as Record<string, unknown>
    const wrong = new Set(problems.filter(problem => problem.path.startsWith(`/${index}/`)).map(problem => problem.path.split('/')[2] as string))
    problems.push(...nestedValueProblems(settings, 'devices', index, wrong), ...sourceProblems(settings, `/${index}`))
    const sameName = names.get(name)
    if (typeof name === 'string' && sameName !== undefined) problems.push(fieldProblem('devices', `/${index}/name`, `is ${JSON.stringify(name)}, the name of devices[${sameName}] too: each device needs a name of its own`))
    if (!names.has(name)) names.set(name, index)
    const samePort = ports.get(port)
    if (typeof port === 'number' && port !== 0 && samePort !== undefined) problems.push(fieldProblem('devices', `/${index}/port`, `is ${port}, the port of devices[${samePort}] too`))
    if (!ports.has(port)) ports.set(port, index)
  })
  return problems
}

/** Every problem of the settings a fleet file's top level gives every device. */
export function topSettingsProblems (settings: Record<string, unknown>): OptionsProblem[] {
  return [...listOptionsProblems(checkSettings, settings), ...sourceProblems(settings, '')]
}

// A device's data comes from one source; `at` is where the settings are under devices ('' for the top level).
function sourceProblems ({ generate, fixtures }: DeviceSettings, at: string): OptionsProblem[] {
  if (generate === undefined || fixtures === undefined) return []
  const message = 'cannot be combined with fixtures: generated data is served instead of fixture files'
  return [at === '' ? fieldProblem('generate', '', message) : fieldProblem('devices', `${at}/generate`, message)]
}
