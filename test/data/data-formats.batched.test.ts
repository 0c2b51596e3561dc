import t, { type Test } from 'tap'
import { BUNDLED_FIXTURES, loadFixtures } from '../../src/data/fixtures.js'
import { validateFixtureData } from '../../src/data/fixture-validation.js'
import { generateCameras, generateFixtureData } from '../../src/data/generate.js'
import { lineString, pointBeside, wktPoint } from '../../src/data/line-geometry.js'
import { DEMO_FIXTURES } from '../../src/msw/demo-fixtures.js'
import type { CountingLine, FixtureData } from '../../src/contract/schemas.js'
import { line } from '../helpers/app.js'
import { formatProblems, pointCounts, sideOf } from '../helpers/device-formats.js'

// The data mock-nvr makes keeps a real NVR's formats (docs/fixtures.md): WKT in pixels of a 1080p frame.
function checkLines (t: Test, lines: readonly CountingLine[]): void {
  t.strictSame(lines.flatMap(formatProblems), [], 'every line keeps the device\'s formats')
  t.ok(lines.filter(one => one.coalesce_entries).length > lines.length / 2, 'coalesce_entries is mostly true')
  const counts = pointCounts(lines)
  t.ok(counts.has(2) && (counts.has(3) || counts.has(4)), 'some lines have 2 points, some 3 or 4')
  const ages = new Set(lines.map(one => one.max_age))
  t.ok(ages.has(15) && ages.has(30), 'max_age holds the common 15 and 30')
}

t.test('the bundled fixtures are an airport terminal in the device\'s formats', async t => {
  const { lines, cameraIds } = await loadFixtures(BUNDLED_FIXTURES)
  checkLines(t, lines)
  t.ok(cameraIds.length >= 5 && lines.length >= 10, 'several cameras and lines')
  t.ok(pointCounts(lines).has(4), 'a line bends with 4 points')
})

t.test('the MSW handlers\' demo data is in the device\'s formats', async t => {
  checkLines(t, DEMO_FIXTURES.flatMap(({ data }) => (data as FixtureData).counting_lines ?? []))
})

t.test('--generate makes the device\'s formats, the same from the same seed, at every size', async t => {
  for (const seed of [1, 2, 99]) {
    const data = generateFixtureData({ cameras: 40, linesPerCamera: 50, seed })
    checkLines(t, data.counting_lines ?? [])
    t.same(validateFixtureData(data, 'generated'), data, 'the fixture checks take it as it is')
  }
  t.strictSame(generateFixtureData({ cameras: 3, linesPerCamera: 7, seed: 5 }), generateFixtureData({ cameras: 3, linesPerCamera: 7, seed: 5 }))

  // The sizes at the bounds: the most cameras, the most lines per camera, and a single line.
  for (const size of [{ cameras: 10_000, linesPerCamera: 1 }, { cameras: 1, linesPerCamera: 10_000 }]) {
    const lines = [...generateCameras({ ...size, seed: 3 })].flatMap(camera => camera.lines)
    t.equal(lines.length, 10_000)
    checkLines(t, lines)
  }
  t.strictSame(generateFixtureData({ cameras: 1, linesPerCamera: 1, seed: 4 }).counting_lines?.flatMap(formatProblems), [])
})

t.test('the geometry helpers write WKT and put a point on the asked side', async t => {
  const points: Array<[number, number]> = [[100, 500], [900, 500], [1700, 540]]
  t.equal(lineString(points), 'LINESTRING(100 500, 900 500, 1700 540)')
  t.equal(wktPoint([3, 4]), 'POINT(3 4)')
  t.strictSame(pointBeside([[0, 0], [100, 0]], 1, 10), [50, -10], 'left of the direction of travel on screen is up')
  t.strictSame(pointBeside([[0, 0], [100, 0]], -1, 10), [50, 10])
  t.strictSame(pointBeside(points, 1, 120), [1306, 400], 'beside the middle segment, the second of two, 120 pixels off')
  t.equal(sideOf(points, [500, 380]), -1)
  t.equal(sideOf(points, [500, 620]), 1)
  t.equal(sideOf(points, [500, 500]), 0, 'on the line')
})

t.test('fixture validation still takes any text in the geometry, anchor and class, and any max_age', async t => {
  // The seed leaves these open: a user's device may send other forms, and its data must load.
  const lines = [
    line({ id: 'a', counting_line: '0.18,0.72;0.82,0.72', anchor: 'bottom_center', class: 'car', max_age: 90 }),
    line({ id: 'b', counting_line: 'POLYGON((1 1, 2 2, 1 2, 1 1))', anchor: '', class: 'anything at all', max_age: 0 }),
    line({ id: 'c', counting_line: '', anchor: 'POINT(-5 99999)', class: '', max_age: -3 })
  ]
  t.strictSame(validateFixtureData({ counting_lines: lines }, 'open.json').counting_lines, lines)
})
