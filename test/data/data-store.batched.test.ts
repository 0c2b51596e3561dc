import t from 'tap'
import { DataStore } from '../../src/data/data-store.js'
import { datasetFromData } from '../../src/data/dataset.js'
import { generateCameras, generateFixtureData } from '../../src/data/generate.js'
import { AUTH, build, line, SAMPLE_DATA } from '../helpers/app.js'

t.test('a replacement is served on the very next request, and reset brings the start-up data back', async t => {
  const app = await build(t)
  const store = new DataStore(datasetFromData(SAMPLE_DATA))
  t.equal(store.camera('cam-1')?.lineCount, 2)
  store.replace(datasetFromData({ counting_lines: [line({ camera_id: 'cam-7' })] }))
  t.equal(store.camera('cam-1'), undefined)
  t.equal(store.camera('cam-7')?.lineCount, 1)
  store.reset()
  t.equal(store.camera('cam-1')?.lineCount, 2)
  t.equal(store.current.dataset.cameraIds.length, 3)
  t.strictSame([store.current.cameras.size, store.current.lineCount], [3, 3])
  t.equal((await app.inject({ url: '/nvr/v1/cameras/cam-1/counting_lines', headers: AUTH })).statusCode, 200)
})

t.test('prepared bodies parse back to exactly the data', async t => {
  const store = new DataStore(datasetFromData(SAMPLE_DATA))
  const camera = store.camera('cam-1')
  t.strictSame(JSON.parse(String(camera?.listBody)).content, SAMPLE_DATA.counting_lines?.slice(0, 2))
  t.strictSame(JSON.parse(String(camera?.lineBody('line-2'))).content, SAMPLE_DATA.counting_lines?.[1])
  t.strictSame(JSON.parse(String(store.camera('cam-empty')?.listBody)), { result: { success: true, httpCode: 200 }, content: [] })
})

t.test('rebase serves a dataset and makes it what reset returns to', async t => {
  const store = new DataStore(datasetFromData(SAMPLE_DATA))
  store.rebase(datasetFromData({ counting_lines: [line({ camera_id: 'cam-8' })] }))
  store.replace(datasetFromData({ cameras: [{ id: 'cam-9' }] }))
  t.equal(store.camera('cam-8'), undefined)
  store.reset()
  t.equal(store.camera('cam-8')?.lineCount, 1)
  t.equal(store.camera('cam-1'), undefined)
})

t.test('generated data, whose objects are not kept, reads back from its bytes as the data generated', async t => {
  const size = { cameras: 3, linesPerCamera: 4, seed: 9 }
  const store = new DataStore(generateCameras(size))
  const generated = datasetFromData(generateFixtureData(size))
  t.strictSame(store.current.dataset, generated)
  t.strictSame(store.current.firstLine, generated.lines[0])
  t.strictSame(store.camera('cam-2')?.firstLines(3), generated.lines.slice(4, 7))
  t.strictSame(store.camera('cam-2')?.firstLines(10), generated.lines.slice(4, 8), 'no more lines than the camera has')
})
