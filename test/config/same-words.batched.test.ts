import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { readFleetFile } from '../../src/fleet/fleet-file.js'
import { loadDeviceSchedule } from '../../src/start/device-schedule.js'
import { loadFixtures } from '../../src/data/fixtures.js'
import { startMockNvr } from '../../src/index.js'
import type { ValueProblem } from '../../src/util/value-errors.js'
import { line } from '../helpers/app.js'

// The same mistakes in every file and body a user writes, the fleet file, a schedule file, a fixture file and an
// admin call's body, told in the same words at each one's JSON path: an unknown key, one a typo away from a known
// one, broken JSON, a missing field, and a value of the wrong type (what it must be, then what was given).

type Problems = Array<Pick<ValueProblem, 'path' | 'message'>>

interface Surface {
  /** Something it takes whole. */
  good: Record<string, unknown>
  /** A key one edit away from one it takes, and that key. */
  near: [typo: string, meant: string]
  /** The good value with a field it needs taken out, and the path of that field. */
  missing: [Record<string, unknown>, string]
  /** The good value with "fast" where a whole number goes, the path of that field, and what it must be. */
  wrongType: [Record<string, unknown>, string, string]
  /** The problems of a text, as the surface reports them. */
  problems: (text: string) => Promise<Problems>
}

const ADMIN_TOKEN = 'admin-token'
const nvr = await startMockNvr({ adminToken: ADMIN_TOKEN })
t.teardown(() => nvr.close())
const dir = t.testdir({})
let files = 0

/** The problems a file's loader throws, without the file's name. */
async function fileProblems (text: string, load: (file: string) => Promise<unknown>): Promise<Problems> {
  const file = join(dir, `file-${files++}.json`)
  await writeFile(file, text)
  const error = await load(file).then(() => undefined, (error: unknown) => error) as { problems?: Array<{ file: string } & ValueProblem> } | undefined
  return (error?.problems ?? []).map(({ path, message }) => ({ path, message }))
}

const data = { cameras: [{ id: 'cam-1' }], counting_lines: [line()] }
const SURFACES: Record<string, Surface> = {
  'a fleet file': {
    good: { tokens: ['site-token'], devices: [{ name: 'a' }] },
    near: ['tokenz', 'tokens'],
    missing: [{ devices: [{ port: 9000 }] }, '/devices/0/name'],
    wrongType: [{ tokens: ['site-token'], devices: [{ name: 'a', port: 'fast' }] }, '/devices/0/port', 'must be a whole number from 0 to 65535'],
    problems: async text => await fileProblems(text, readFleetFile)
  },
  'a schedule file': {
    good: { health: { pattern: 'flapping', up: 10, down: 10 } },
    near: ['helth', 'health'],
    missing: [{ health: { pattern: 'flapping', down: 10 } }, '/health/up'],
    wrongType: [{ health: { pattern: 'flapping', up: 'fast', down: 10 } }, '/health/up', 'must be a whole number from 1 to 2147483647'],
    problems: async text => await fileProblems(text, async schedule => await loadDeviceSchedule({ schedule }))
  },
  'a fixture file': {
    good: data,
    near: ['camera', 'cameras'],
    missing: [{ ...data, counting_lines: [{ ...line(), name: undefined }] }, '/counting_lines/0/name'],
    wrongType: [{ ...data, counting_lines: [{ ...line(), max_age: 'fast' }] }, '/counting_lines/0/max_age', 'must be a whole number'],
    problems: async text => await fileProblems(text, loadFixtures)
  },
  'an admin body': {
    good: data,
    near: ['counting_line', 'counting_lines'],
    missing: [{ ...data, counting_lines: [{ ...line(), name: undefined }] }, '/counting_lines/0/name'],
    wrongType: [{ ...data, counting_lines: [{ ...line(), max_age: 'fast' }] }, '/counting_lines/0/max_age', 'must be a whole number'],
    problems: async text => {
      const response = await nvr.app.inject({ method: 'PUT', url: '/__admin/data', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, payload: text })
      return response.statusCode === 200 ? [] : (response.json() as { result: { problems: Problems } }).result.problems
    }
  }
}

const BROKEN = '{\n  "devices": [],\n}\n'
const MISTAKES: Record<string, (surface: Surface) => [text: string, expected: Problems]> = {
  'an unknown key': ({ good }) => [JSON.stringify({ ...good, colour: 'red' }), [{ path: '/colour', message: 'is not a known field' }]],
  'a key one edit from a known one': ({ good, near: [typo, meant] }) =>
    [JSON.stringify({ ...good, [typo]: good[meant] ?? 1 }), [{ path: `/${typo}`, message: `is not a known field; did you mean "${meant}"?` }]],
  'broken JSON': () => [BROKEN, [{ path: '', message: 'is not valid JSON at line 3, column 1' }]],
  'a missing field': ({ missing: [value, path] }) => [JSON.stringify(value), [{ path, message: 'is missing' }]],
  'a wrong type': ({ wrongType: [value, path, wanted] }) => [JSON.stringify(value), [{ path, message: `${wanted}, not "fast"` }]]
}

t.test('each surface takes its good value', async t => {
  for (const [name, surface] of Object.entries(SURFACES)) t.strictSame(await surface.problems(JSON.stringify(surface.good)), [], name)
})

for (const [mistake, make] of Object.entries(MISTAKES)) {
  t.test(`${mistake} is told in the same words everywhere`, async t => {
    const told = new Set<string>()
    for (const [name, surface] of Object.entries(SURFACES)) {
      const [text, expected] = make(surface)
      const problems = await surface.problems(text)
      t.strictSame(problems, expected, name)
      // The words without the surface's own key names and its field's range: one wording for all.
      told.add(problems.map(problem => problem.message.replace(/"[^"]+"/g, '"KEY"').replace(/ from \d+ to \d+/, '')).join('\n'))
    }
    t.equal(told.size, 1, [...told].join(' | '))
  })
}
