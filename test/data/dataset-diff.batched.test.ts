import t from 'tap'
import { describeDiff, diffDatasets } from '../../src/data/dataset-diff.js'
import { datasetFromData } from '../../src/data/dataset.js'
import { line, SAMPLE_DATA } from '../helpers/app.js'

const before = datasetFromData(SAMPLE_DATA)

t.test('identical datasets have no difference', async t => {
  const diff = diffDatasets(before, datasetFromData(structuredClone(SAMPLE_DATA)))
  t.strictSame(diff, { camerasAdded: [], camerasRemoved: [], linesAdded: [], linesRemoved: [], linesChanged: [], camerasReordered: [] })
  t.equal(describeDiff(diff), 'nothing changed')
})

t.test('cameras and lines added, removed and changed are named', async t => {
  const after = datasetFromData({
    cameras: [{ id: 'cam-1' }, { id: 'cam-new' }],
    counting_lines: [
      line({ max_age: 31 }),
      line({ id: 'line-4' }),
      line({ id: 'line-3', camera_id: 'cam-2', name: 'Dock', class: 'truck' })
    ]
  })
  const diff = diffDatasets(before, after)
  t.strictSame(diff, {
    camerasAdded: ['cam-new'],
    camerasRemoved: ['cam-empty'],
    linesAdded: [{ camera_id: 'cam-1', id: 'line-4' }],
    linesRemoved: [{ camera_id: 'cam-1', id: 'line-2' }],
    linesChanged: [{ camera_id: 'cam-1', id: 'line-1' }],
    camerasReordered: []
  })
  t.equal(describeDiff(diff),
    '1 camera added (cam-new), 1 camera removed (cam-empty), 1 line added (line-4 of cam-1), ' +
    '1 line removed (line-2 of cam-1), 1 line changed (line-1 of cam-1)')
})

t.test('a line is known by its camera and id together', async t => {
  const after = datasetFromData({ counting_lines: [line({ camera_id: 'cam-2' })] })
  const diff = diffDatasets(datasetFromData({ counting_lines: [line()] }), after)
  t.strictSame(diff.linesAdded, [{ camera_id: 'cam-2', id: 'line-1' }])
  t.strictSame(diff.linesRemoved, [{ camera_id: 'cam-1', id: 'line-1' }])
  t.strictSame(diff.linesChanged, [])
})

t.test('every field of a line counts as a change', async t => {
  const changes = { name: 'x', counting_line: '0,0;1,1', anchor: 'center', coalesce_entries: false, class: 'car', max_age: 1, created: '2020-01-01T00:00:00.000Z', updated: '2030-01-01T00:00:00.000Z' }
  for (const [field, value] of Object.entries(changes)) {
    const diff = diffDatasets(datasetFromData({ counting_lines: [line()] }), datasetFromData({ counting_lines: [line({ [field]: value })] }))
    t.equal(diff.linesChanged.length, 1, field)
  }
})

t.test('lines listed in another order are reported by camera', async t => {
  const [first, second, third] = SAMPLE_DATA.counting_lines ?? []
  const after = datasetFromData({ cameras: SAMPLE_DATA.cameras, counting_lines: [third, second, first] })
  const diff = diffDatasets(before, after)
  t.strictSame(diff.camerasReordered, ['cam-1'])
  t.equal(describeDiff(diff), '1 camera with lines reordered (cam-1)')
})

t.test('a long list is cut after five names', async t => {
  const lines = Array.from({ length: 7 }, (_, index) => line({ id: `l${index}` }))
  const diff = diffDatasets(datasetFromData({}), datasetFromData({ counting_lines: lines }))
  t.equal(describeDiff(diff), '1 camera added (cam-1), 7 lines added (l0 of cam-1, l1 of cam-1, l2 of cam-1, l3 of cam-1, l4 of cam-1 and 2 more)')
})
