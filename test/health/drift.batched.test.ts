import t from 'tap'
import { driftEdit } from '../../src/health/drift.js'
import { moveWkt } from '../../src/health/wkt.js'
import { datasetFromData, type Dataset } from '../../src/data/dataset.js'
import { createRandom } from '../../src/util/random.js'
import { line } from '../helpers/app.js'

const NOW = Date.parse('2030-01-02T03:04:05.678Z')

function wktData (): Dataset {
  return datasetFromData({
    cameras: [{ id: 'cam-1' }, { id: 'cam-2' }],
    counting_lines: [
      line({ id: 'a', counting_line: 'LINESTRING(100 200, 300 200, 300 400)', anchor: 'POINT(200 250)' }),
      line({ id: 'b', counting_line: 'LINESTRING(1900 1070, 1910 1075)', anchor: 'bottom_center' }),
      line({ id: 'c', camera_id: 'cam-2', counting_line: '0.1,0.5;0.9,0.5' })
    ]
  })
}

t.test('WKT points move by the offset, kept in the 1920×1080 frame; other text is not WKT', async t => {
  t.equal(moveWkt('LINESTRING(100 200, 300 200)', 10, -5), 'LINESTRING(110 195, 310 195)')
  t.equal(moveWkt(' linestring ( 1915 5 ,1.5 1079 ) ', 10, -10), 'LINESTRING(1920 0, 11.5 1069)')
  t.equal(moveWkt('POINT(0 1080)', -3, 4), 'POINT(0 1080)')
  t.equal(moveWkt('POINT(10 20)', 5, 5), 'POINT(15 25)')
  t.equal(moveWkt('LINESTRING(100 200)', 1, 1), undefined)
  t.equal(moveWkt('0.1,0.5;0.9,0.5', 1, 1), undefined)
})

t.test('every edit leaves valid data, dated with the clock, in milliseconds and Z', async t => {
  const random = createRandom(7)
  let dataset = wktData()
  const kinds = new Set<string>()
  for (let step = 0; step < 200; step++) {
    const now = NOW + step * 1000
    const result = driftEdit(dataset, random, now)
    t.ok(result)
    const { dataset: next, edit } = result as NonNullable<typeof result>
    kinds.add(edit.edit)
    t.equal(edit.time, new Date(now).toISOString())
    // Valid as a fixture file is: any problem would throw.
    dataset = datasetFromData({ cameras: next.cameraIds.map(id => ({ id })), counting_lines: next.lines })
    t.strictSame(dataset.cameraIds, ['cam-1', 'cam-2'], 'no camera disappears')
    if (edit.edit !== 'removed') {
      const edited = dataset.lines.find(each => each.id === edit.line && each.camera_id === edit.camera)
      t.equal(edited?.updated, edit.time)
      t.match(edited?.updated, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    } else {
      t.notOk(dataset.lines.some(each => each.id === edit.line && each.camera_id === edit.camera))
    }
  }
  t.strictSame([...kinds].sort(), ['added', 'moved', 'removed', 'renamed'])
})

t.test('a move shifts the line and its WKT anchor alike; a non-WKT line is renamed instead', async t => {
  const dataset = datasetFromData({ cameras: [], counting_lines: [line({ id: 'a', counting_line: 'LINESTRING(500 500, 700 500)', anchor: 'POINT(600 550)' })] })
  let moved
  for (let seed = 1; moved === undefined; seed++) {
    const result = driftEdit(dataset, createRandom(seed), NOW)
    if (result?.edit.edit === 'moved') moved = result.dataset.lines[0]
  }
  const [x1, y1] = /LINESTRING\((\d+) (\d+)/.exec(moved.counting_line)!.slice(1).map(Number) as [number, number]
  t.equal(moved.anchor, `POINT(${x1 + 100} ${y1 + 50})`)

  const opaque = datasetFromData({ cameras: [], counting_lines: [line({ id: 'a', name: 'Entrance', counting_line: '0.1,0.5;0.9,0.5', anchor: 'bottom_center' })] })
  for (let seed = 1; seed < 40; seed++) {
    const result = driftEdit(opaque, createRandom(seed), NOW)
    t.not(result?.edit.edit, 'moved')
    if (result?.edit.edit === 'renamed') t.not(result.dataset.lines[0]?.name, 'Entrance')
  }
})

t.test('with no line one is added with a free id; with no camera nothing is edited', async t => {
  const dataset = datasetFromData({ cameras: [{ id: 'cam-9' }], counting_lines: [] })
  const result = driftEdit(dataset, createRandom(3), NOW)
  t.equal(result?.edit.edit, 'added')
  t.equal(result?.dataset.lines[0]?.id, 'line-drift-1')
  t.equal(result?.dataset.lines[0]?.created, new Date(NOW).toISOString())
  const taken = datasetFromData({ cameras: [], counting_lines: [line({ id: 'line-drift-2', camera_id: 'cam-9' })] })
  let added
  for (let seed = 1; added === undefined; seed++) {
    const next = driftEdit(taken, createRandom(seed), NOW)
    if (next?.edit.edit === 'added') added = next.dataset.lines[1]
  }
  t.equal(added.id, 'line-drift-3')
  t.equal(driftEdit({ cameraIds: [], lines: [] }, createRandom(1), NOW), undefined)
})

t.test('a line created after the clock\'s time keeps updated at its creation', async t => {
  const dataset = datasetFromData({ cameras: [], counting_lines: [line({ created: '2040-01-01T00:00:00.000Z', updated: '2040-01-01T00:00:00.000Z' })] })
  for (let seed = 1; seed < 20; seed++) {
    const result = driftEdit(dataset, createRandom(seed), NOW)
    if (result?.edit.edit === 'renamed') t.equal(result.dataset.lines[0]?.updated, '2040-01-01T00:00:00.000Z')
  }
})

t.test('the same seed gives the same edits', async t => {
  const run = (): string[] => {
    const random = createRandom(42)
    let dataset = wktData()
    return Array.from({ length: 20 }, (_, step) => {
      const result = driftEdit(dataset, random, NOW + step)!
      dataset = result.dataset
      return JSON.stringify(result)
    })
  }
  t.strictSame(run(), run())
})
