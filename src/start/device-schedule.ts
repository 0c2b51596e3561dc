import { readFile } from 'node:fs/promises'
import { describeFsError } from '../data/fixtures.js'
import { locateJsonSyntaxError } from '../data/json-syntax.js'
import { OptionsError } from '../config/options.js'
import { parseHealthSpec, problemsOfSchedule, type HealthOption, type HealthPlan, type Schedule } from '../health/health-spec.js'
import type { ValueProblem } from '../util/value-errors.js'
import type { DeviceSchedule } from '../device/device.js'
import { HealthSpecError, ScheduleFileError } from '../errors/errors.js'

/**
 * The schedule from the options: `health` (a state from the start, or steps or a pattern), or a schedule
 * file's; `drift` (ms) before the file's. Throws OptionsError or ScheduleFileError naming each problem.
 */
export async function loadDeviceSchedule ({ health, schedule, drift }: { health?: HealthOption, schedule?: string, drift?: number }): Promise<DeviceSchedule> {
  if (health !== undefined && schedule !== undefined) throw new OptionsError('options health and schedule cannot be used together: give the health in one of them')
  const fromFile = schedule === undefined ? {} : await readSchedule(schedule)
  const plan = health === undefined ? fromFile.health : planOf(health)
  const driftEvery = drift ?? fromFile.drift?.every
  return { ...(plan === undefined ? {} : { plan }), ...(driftEvery === undefined ? {} : { driftEvery }) }
}

function planOf (health: HealthOption): HealthPlan {
  try {
    if (typeof health === 'object' && health !== null && 'state' in health) return [{ at: 0, ...parseHealthSpec(health) }]
    const problems = problemsOfSchedule({ health })
    if (problems.length > 0) throw new HealthSpecError(problems)
    return health as HealthPlan
  } catch (error) {
    const [first] = (error as HealthSpecError).problems as [ValueProblem]
    const where = first.path.replace(/^\/health/, '').split('/').slice(1).map(part => /^\d+$/.test(part) ? `[${part}]` : `.${part}`).join('')
    throw new OptionsError(`option health${where} ${first.message}`)
  }
}

async function readSchedule (file: string): Promise<Schedule> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new ScheduleFileError(file, [{ path: '', message: describeFsError(error) }])
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new ScheduleFileError(file, [{ path: '', message: `is not valid JSON (${locateJsonSyntaxError(text)})` }])
  }
  const problems = problemsOfSchedule(value)
  if (problems.length > 0) throw new ScheduleFileError(file, problems)
  return value as Schedule
}
