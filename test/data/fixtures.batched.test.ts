import fsPromises from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { spyOnBuiltin } from '../helpers/builtin-spy.js'
import { BUNDLED_FIXTURES, loadFixtures } from '../../src/data/fixtures.js'
import { datasetFromData } from '../../src/data/dataset.js'
import { line } from '../helpers/app.js'
import { FixtureError } from '../../src/errors/errors.js'

const json = (value: unknown) => JSON.stringify(value, null, 2)

async function problemsOf (promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    if (error instanceof FixtureError) return error.problems
    throw error
  }
  throw new Error('expected a FixtureError')
}

t.test('the bundled fixtures load: several cameras, one without lines, varied classes', async t => {
  const dataset = await loadFixtures(BUNDLED_FIXTURES)
  t.ok(dataset.cameraIds.length >= 5)
  const withLines = new Set(dataset.lines.map(line => line.camera_id))
  t.ok(dataset.cameraIds.some(id => !withLines.has(id)), 'a camera has no lines')
  t.strictSame([...new Set(dataset.lines.map(line => line.class))].sort(), ['carry-ons', 'person', 'roller bags', 'shoulder bags'])
})

t.test('a folder is read in lexical file order, then in order inside each file', async t => {
  const dir = t.testdir({
    'b.json': json({ counting_lines: [line({ id: 'b1' }), line({ id: 'b2' })] }),
    'a.json': json({ cameras: [{ id: 'cam-0' }], counting_lines: [line({ id: 'a1' })] }),
    'notes.txt': 'not a fixture',
    nested: { 'c.json': json({ counting_lines: [line({ id: 'c1' })] }) }
  })
  const dataset = await loadFixtures(dir)
  t.strictSame(dataset.lines.map(line => line.id), ['a1', 'b1', 'b2'])
  t.strictSame(dataset.cameraIds, ['cam-0', 'cam-1'])
})

t.test('a single file loads; a camera exists when listed or named by a line', async t => {
  const dir = t.testdir({ 'one.json': json({ cameras: [{ id: 'cam-9' }], counting_lines: [line()] }) })
  const dataset = await loadFixtures(join(dir, 'one.json'))
  t.strictSame(dataset.cameraIds, ['cam-9', 'cam-1'])
  t.strictSame(await loadFixtures(join(t.testdir({ 'empty.json': '{}' }), 'empty.json')), { cameraIds: [], lines: [] })
})

t.test('each schema problem names the file, the JSON path and what is wrong', async t => {
  const bad = [
    ['a missing field', line(), (l: Record<string, unknown>) => { delete l.name }, '/counting_lines/0/name', 'is missing'],
    ['an unknown field', line(), (l: Record<string, unknown>) => { l.colour = 'red' }, '/counting_lines/0/colour', 'is not a known field'],
    ['a wrong type', line(), (l: Record<string, unknown>) => { l.max_age = '30' }, '/counting_lines/0/max_age', 'must be a whole number, not "30"'],
    ['a float max_age', line(), (l: Record<string, unknown>) => { l.max_age = 1.5 }, '/counting_lines/0/max_age', 'must be a whole number, not 1.5'],
    ['a wrong boolean', line(), (l: Record<string, unknown>) => { l.coalesce_entries = 'yes' }, '/counting_lines/0/coalesce_entries', 'must be true or false, not "yes"'],
    ['a non-string name', line(), (l: Record<string, unknown>) => { l.name = null }, '/counting_lines/0/name', 'must be a string, not null'],
    ['an empty id', line(), (l: Record<string, unknown>) => { l.id = '' }, '/counting_lines/0/id', 'must not be empty'],
    ['a too long id', line(), (l: Record<string, unknown>) => { l.id = 'x'.repeat(1025) }, '/counting_lines/0/id', 'must be at most 1024 characters long'],
    ['a malformed timestamp', line(), (l: Record<string, unknown>) => { l.created = '2024-05-01 08:30:00' }, '/counting_lines/0/created', 'must be a UTC timestamp like 2024-05-01T08:30:00.000Z, not "2024-05-01 08:30:00"'],
    ['an impossible timestamp', line(), (l: Record<string, unknown>) => { l.updated = '2024-02-30T10:00:00.000Z' }, '/counting_lines/0/updated', '"2024-02-30T10:00:00.000Z" is not a real date and time']
  ] as const
  for (const [what, base, spoil, path, message] of bad) {
    const value = { ...base } as Record<string, unknown>
    spoil(value)
    const dir = t.testdir({ 'lines.json': json({ counting_lines: [value] }) })
    t.strictSame(await problemsOf(loadFixtures(dir)), [{ file: join(dir, 'lines.json'), path, message }], what)
  }
})

t.test('the shape of the file itself is checked', async t => {
  const cases = [
    [[], '', 'must be an object, not []'],
    [{ cameras: {} }, '/cameras', 'must be an array, not {}'],
    [{ cameras: [{ id: 'a', name: 'x' }] }, '/cameras/0/name', 'is not a known field'],
    [{ lines: [] }, '/lines', 'is not a known field'],
    [{ cameras: ['cam-1'] }, '/cameras/0', 'must be an object, not "cam-1"']
  ] as const
  for (const [content, path, message] of cases) {
    const problems = await problemsOf(Promise.resolve().then(() => datasetFromData(content, 'data.json')))
    t.strictSame(problems[0], { file: 'data.json', path, message }, JSON.stringify(content))
  }
})

t.test('invalid JSON is reported with its line and column', async t => {
  const cases = [
    ['{\n  "cameras": [\n    {"id": "a"},\n  ]\n}', 'line 4, column 3'],
    ['{"cameras": [}', 'line 1, column 14'],
    ['{"a": tru}', 'line 1, column 7'],
    ['', 'line 1, column 1'],
    ['{"a": 1} x', 'line 1, column 10'],
    ['{"a": "\u0001"}', 'line 1, column 7'],
    ['{"a" 1}', 'line 1, column 6'],
    ['[1, 2', 'line 1, column 6'],
    ['{"a": [], "b": {}} x', 'line 1, column 20']
  ]
  for (const [text, where] of cases) {
    const dir = t.testdir({ 'broken.json': text as string })
    const problems = await problemsOf(loadFixtures(dir))
    t.equal(problems[0]?.message, `is not valid JSON at ${where as string}`, JSON.stringify(text))
  }
})

t.test('a UTF-8 byte order mark is accepted', async t => {
  const dir = t.testdir({ 'bom.json': `\uFEFF${json({ counting_lines: [line()] })}` })
  t.equal((await loadFixtures(dir)).lines.length, 1)
})

t.test('a file that is not UTF-8 is refused naming its encoding, not as invalid JSON', async t => {
  const text = json({ counting_lines: [line({ name: 'Café' })] })
  const utf16be = Buffer.from(Buffer.from(`\uFEFF${text}`, 'utf16le').swap16())
  const cases: Array<[string, Buffer, string]> = [
    ['utf16le-bom.json', Buffer.from(`\uFEFF${text}`, 'utf16le'), 'is UTF-16 (little-endian, by its byte order mark); save it as UTF-8'],
    ['utf16be-bom.json', utf16be, 'is UTF-16 (big-endian, by its byte order mark); save it as UTF-8'],
    ['utf16le.json', Buffer.from(text, 'utf16le'), 'is UTF-16 (little-endian, without a byte order mark); save it as UTF-8'],
    ['utf16be.json', Buffer.from(Buffer.from(text, 'utf16le').swap16()), 'is UTF-16 (big-endian, without a byte order mark); save it as UTF-8'],
    ['latin1.json', Buffer.from(text, 'latin1'), 'is not UTF-8 text (Latin-1 or another legacy encoding?); save it as UTF-8']
  ]
  const dir = t.testdir(Object.fromEntries(cases.map(([name, bytes]) => [name, bytes])))
  const problems = await problemsOf(loadFixtures(dir))
  t.strictSame(problems, cases.map(([name, , message]) => ({ file: join(dir, name), path: '', message })).sort((a, b) => a.file < b.file ? -1 : 1))
})

t.test('hidden files and editors\' lock files in a folder are skipped', async t => {
  const dir = t.testdir({
    'a.json': json({ counting_lines: [line()] }),
    '.hidden.json': '{ not json',
    // Emacs's lock file: a link to nowhere.
    '.#a.json': t.fixture('symlink', 'nobody@host.1234')
  })
  t.strictSame((await loadFixtures(dir)).lines, [line()])
  t.strictSame(await problemsOf(loadFixtures(t.testdir({ '.only.json': json({}) }))), [{ file: t.testdirName, path: '', message: 'the folder holds no .json file' }])
})

t.test('impossible dates are reported in the same run as the schema\'s problems', async t => {
  const dir = t.testdir({
    'a.json': json({
      counting_lines: [
        line({ created: '2024-02-30T10:00:00.000Z', max_age: 'old' as never }),
        line({ id: 'line-2', updated: '2024-13-01T00:00:00.000Z', colour: 'red' } as never),
        line({ id: 'line-3', created: 'yesterday' }),
        null,
        'a line'
      ]
    }),
    'b.json': json({ counting_lines: { not: 'a list' } })
  })
  const problems = (await problemsOf(loadFixtures(dir))).filter(problem => problem.file.endsWith('a.json'))
  t.strictSame(problems.filter(problem => problem.message.includes('real date')), [
    { file: join(dir, 'a.json'), path: '/counting_lines/0/created', message: '"2024-02-30T10:00:00.000Z" is not a real date and time' },
    { file: join(dir, 'a.json'), path: '/counting_lines/1/updated', message: '"2024-13-01T00:00:00.000Z" is not a real date and time' }
  ], 'each impossible date once; a timestamp of the wrong shape is the schema\'s problem')
  t.ok(problems.some(problem => problem.path === '/counting_lines/0/max_age'), 'beside the schema\'s problems')
  t.ok(problems.some(problem => problem.path === '/counting_lines/2/created' && problem.message.startsWith('must be a UTC timestamp')))
})

t.test('duplicates are refused, also across files', async t => {
  const dir = t.testdir({
    'a.json': json({ cameras: [{ id: 'cam-1' }], counting_lines: [line()] }),
    'b.json': json({ cameras: [{ id: 'cam-1' }], counting_lines: [line({ name: 'Again' }), line({ camera_id: 'cam-2' })] })
  })
  t.strictSame(await problemsOf(loadFixtures(dir)), [
    { file: join(dir, 'b.json'), path: '/cameras/0/id', message: 'camera "cam-1" is already listed at a.json /cameras/0' },
    { file: join(dir, 'b.json'), path: '/counting_lines/0/id', message: 'line "line-1" of camera "cam-1" is already defined at a.json /counting_lines/0' }
  ])
})

t.test('problems of every file are reported together', async t => {
  const dir = t.testdir({ 'a.json': '{', 'b.json': json({ counting_lines: [{}] }) })
  const problems = await problemsOf(loadFixtures(dir))
  t.equal(problems.length, 11)
  t.equal(problems[0]?.file, join(dir, 'a.json'))
  t.equal(problems[1]?.file, join(dir, 'b.json'))
})

t.test('one run reports every problem: each file in name order, then ids used twice, even in files with other problems', async t => {
  const dir = t.testdir({
    'a.json': json({ counting_lines: [line({ id: 'gate-1', camera_id: 'cam-yard' })] }),
    'b.json': json({ cameras: [{ id: 'cam-yard' }], counting_lines: [line({ id: 'gate-1', camera_id: 'cam-yard', max_age: 'old' as never })] }),
    'c.json': '{',
    'd.json': json({ cameras: [{ id: 'cam-yard' }] })
  })
  t.strictSame(await problemsOf(loadFixtures(dir)), [
    { file: join(dir, 'b.json'), path: '/counting_lines/0/max_age', message: 'must be a whole number, not "old"' },
    { file: join(dir, 'c.json'), path: '', message: 'is not valid JSON at line 1, column 2' },
    { file: join(dir, 'b.json'), path: '/counting_lines/0/id', message: 'line "gate-1" of camera "cam-yard" is already defined at a.json /counting_lines/0' },
    { file: join(dir, 'd.json'), path: '/cameras/0/id', message: 'camera "cam-yard" is already listed at b.json /cameras/0' }
  ])
})

t.test('ids are compared only where an entry has one; the shape problems say the rest', async t => {
  const dir = t.testdir({
    'a.json': json({ cameras: [{ id: '' }, 7, { id: 3 }], counting_lines: [{ id: 'x' }, { camera_id: 'cam-1' }, null] }),
    'b.json': json({ cameras: [{ id: '' }, 7, { id: 3 }], counting_lines: [{ id: 'x' }, { camera_id: 'cam-1' }, null] }),
    'c.json': json({ cameras: 'cam-1', counting_lines: {} }),
    'd.json': json([{ cameras: [{ id: 'cam-1' }] }]),
    'e.json': 'null'
  })
  const problems = await problemsOf(loadFixtures(dir))
  t.notOk(problems.some(problem => problem.message.startsWith('camera') || problem.message.startsWith('line')), 'no duplicate is claimed')
  t.strictSame([...new Set(problems.map(problem => problem.file))], ['a', 'b', 'c', 'd', 'e'].map(name => join(dir, `${name}.json`)))
})

t.test('the error message lists problems one per line and cuts a long list short', async t => {
  const lines = Array.from({ length: 30 }, () => ({}))
  const error = await Promise.resolve().then(() => datasetFromData({ counting_lines: lines }, 'many.json')).catch(error => error as FixtureError)
  t.type(error, FixtureError)
  const text = (error as FixtureError).message.split('\n')
  t.equal(text[0], 'Invalid fixtures:')
  t.equal(text[1], '  many.json: /counting_lines/0/id: is missing')
  t.equal(text.length, 22)
  t.match(text[21], /…and \d+ more/)
})

t.test('linked files in a folder are read, as in mounted config folders', async t => {
  const dir = t.testdir({
    real: { 'lines.json': json({ counting_lines: [line()] }) },
    mounted: { 'lines.json': t.fixture('symlink', '../real/lines.json') }
  })
  t.equal((await loadFixtures(join(dir, 'mounted'))).lines.length, 1)
})

t.test('unreadable paths are named', async t => {
  const dir = t.testdir({
    empty: {},
    odd: { 'dead.json': t.fixture('symlink', 'missing.json'), 'dir.json': t.fixture('symlink', '../empty') }
  })
  t.strictSame(await problemsOf(loadFixtures(join(dir, 'odd'))), [
    { file: join(dir, 'odd', 'dead.json'), path: '', message: 'no such file or folder' },
    { file: join(dir, 'odd', 'dir.json'), path: '', message: 'cannot be read (EISDIR)' }
  ])
  t.strictSame(await problemsOf(loadFixtures(join(dir, 'nope.json'))), [{ file: join(dir, 'nope.json'), path: '', message: 'no such file or folder' }])
  t.strictSame(await problemsOf(loadFixtures(join(dir, 'empty'))), [{ file: join(dir, 'empty'), path: '', message: 'the folder holds no .json file' }])
})

// Root reads any folder, so the refusal a user without the right gets is made by a stand-in readdir.
t.test('a folder that cannot be listed is named like a file that cannot be read', async t => {
  const refused = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })
  spyOnBuiltin(t, fsPromises, 'readdir', async () => { throw refused })
  const dir = t.testdir({ locked: {} })
  await t.rejects(loadFixtures(join(dir, 'locked')), { name: 'FixtureError', problems: [{ file: join(dir, 'locked'), path: '', message: 'cannot be read (EACCES)' }] })
})
