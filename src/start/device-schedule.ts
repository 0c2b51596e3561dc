import { readFile } from 'node:fs/promises'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { describeFsError } from '../data/fixtures.js'
import { notValidJson } from '../data/json-syntax.js'
import { OptionsError } from '../errors/errors.js'
import { asFileProblem, listOptionsProblems } from '../config/option-problems.js'
import { ScheduleFileSchema, type ScheduleFile } from '../config/device-settings.js'
import { planOfHealth, type HealthOption } from '../health/health-spec.js'
import type { ValueProblem } from '../util/value-errors.js'
import type { DeviceSchedule } from '../device/device.js'
import { ScheduleFileError } from '../errors/errors.js'

const checkScheduleFile = TypeCompiler.Compile(ScheduleFileSchema)

/**
 * The schedule from the options, checked already: `health` (a state from the start, or steps or a pattern), or
 * a schedule file's; `drift` (ms) before the file's. Throws OptionsError or ScheduleFileError naming each problem.
 */
export async function loadDeviceSchedule ({ health, schedule, drift }: { health?: HealthOption, schedule?: string, drift?: number }): Promise<DeviceSchedule> {
  if (health !== undefined && schedule !== undefined) throw new OptionsError('options health and schedule cannot be used together: give the health in one of them')
  const fromFile = schedule === undefined ? {} : await readSchedule(schedule)
  const given = health ?? fromFile.health
  const plan = given === undefined ? undefined : planOfHealth(given)
  const driftEvery = drift ?? fromFile.drift
  return { ...(plan === undefined ? {} : { plan }), ...(driftEvery === undefined ? {} : { driftEvery }) }
}

/** Every problem of a schedule file's content, as the other surfaces word them. */
export function problemsOfScheduleFile (value: unknown): ValueProblem[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [{ path: '', message: 'must be an object: { "health": …, "drift": MS }' }]
  return listOptionsProblems(checkScheduleFile, value).map(asFileProblem)
}

async function readSchedule (file: string): Promise<ScheduleFile> {
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
    throw new ScheduleFileError(file, [{ path: '', message: notValidJson(text) }])
  }
  const problems = problemsOfScheduleFile(value)
  if (problems.length > 0) throw new ScheduleFileError(file, problems)
  return value as ScheduleFile
}
