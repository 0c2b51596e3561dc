import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { loadDeviceSchedule } from '../../src/start/device-schedule.js'
import { OptionsError } from '../../src/errors/errors.js'
import { describeStartFailure } from '../../src/cli/start-failure.js'
import { ScheduleFileError } from '../../src/errors/errors.js'

t.test('a schedule file gives the health and the drift; --drift comes before the file\'s', async t => {
  const dir = t.testdir({ 'schedule.json': JSON.stringify({ health: { pattern: 'flapping', up: 1000, down: 500 }, drift: 60000 }) })
  const file = join(dir, 'schedule.json')
  t.strictSame(await loadDeviceSchedule({ schedule: file }), { plan: { pattern: 'flapping', up: 1000, down: 500 }, driftEvery: 60000 })
  t.strictSame(await loadDeviceSchedule({ schedule: file, drift: 5000 }), { plan: { pattern: 'flapping', up: 1000, down: 500 }, driftEvery: 5000 })
  t.strictSame(await loadDeviceSchedule({}), {})
  t.strictSame(await loadDeviceSchedule({ health: { state: 'slow', latency: 100 } }), { plan: [{ at: 0, state: 'slow', latency: 100 }] })
})

t.test('a bad schedule file is named with its JSON path and problem', async t => {
  const dir = t.testdir({})
  const file = join(dir, 'schedule.json')
  const refused = async (text: string | undefined, message: string) => {
    if (text !== undefined) await writeFile(file, text)
    const error = await loadDeviceSchedule({ schedule: text === undefined ? join(dir, 'missing.json') : file }).catch(caught => caught)
    t.type(error, ScheduleFileError)
    t.equal(describeStartFailure(error), message)
  }
  await refused(undefined, `Invalid schedule:\n  ${join(dir, 'missing.json')}: no such file or folder`)
  await refused('{"health": [', `Invalid schedule:\n  ${file}: is not valid JSON at line 1, column 13`)
  await refused(JSON.stringify({ health: [{ at: 0, state: 'offline', for: -1 }, { at: 0, state: 'dozing' }], drift: 0, colour: 'red' }), [
    'Invalid schedule:',
    `  ${file}: /colour: is not a known field`,
    `  ${file}: /drift: must be a whole number from 1 to 2147483647, not 0`,
    `  ${file}: /health/0/for: must be a whole number from 1 to 2147483647, not -1`,
    `  ${file}: /health/1/state: must be one of "online", "offline", "unreachable", "rebooting", "slow", not "dozing"`
  ].join('\n'))
  await refused('[]', `Invalid schedule:\n  ${file}: must be an object: { "health": …, "drift": MS }`)
})

t.test('drift has one form everywhere: milliseconds, as --drift, a fleet file and the library take it', async t => {
  const file = join(t.testdir({ 'schedule.json': JSON.stringify({ drift: { every: 60000 } }) }), 'schedule.json')
  const error = await loadDeviceSchedule({ schedule: file }).catch((caught: Error) => caught)
  t.equal((error as Error).message, `Invalid schedule:\n  ${file}: /drift: must be a whole number from 1 to 2147483647, not {"every":60000}`)
})

t.test('health and schedule together are refused', async t => {
  await t.rejects(loadDeviceSchedule({ health: { state: 'online' }, schedule: 'x.json' }), new OptionsError('options health and schedule cannot be used together: give the health in one of them'))
})
