import t from 'tap'
import { DataStore } from '../src/data-store.js'
import { datasetFromData } from '../src/fixtures.js'
import { AUTH, build, line, SAMPLE_DATA } from './helper.js'

t.test('a replacement is served on the very next request, and reset brings the start-up data back', async t => {
  const app = await build(t)
  const store = new DataStore(datasetFromData(SAMPLE_DATA))
  t.equal(store.camera('cam-1')?.lines.length, 2)
  store.replace(datasetFromData({ counting_lines: [line({ camera_id: 'cam-7' })] }))
  t.equal(store.camera('cam-1'), undefined)
  t.equal(store.camera('cam-7')?.lines.length, 1)
  store.reset()
  t.equal(store.camera('cam-1')?.lines.length, 2)
  t.equal(store.current.dataset.cameraIds.length, 3)
  t.equal((await app.inject({ url: '/nvr/v1/cameras/cam-1/counting_lines', headers: AUTH })).statusCode, 200)
})

t.test('prepared bodies parse back to exactly the data', async t => {
  const store = new DataStore(datasetFromData(SAMPLE_DATA))
  const camera = store.camera('cam-1')
  t.strictSame(JSON.parse(String(camera?.listBody)).content, SAMPLE_DATA.counting_lines?.slice(0, 2))
  t.strictSame(JSON.parse(String(camera?.lineBodies.get('line-2'))).content, SAMPLE_DATA.counting_lines?.[1])
  t.strictSame(JSON.parse(String(store.camera('cam-empty')?.listBody)), { result: { success: true, httpCode: 200 }, content: [] })
})

t.test('rebase serves a dataset and makes it what reset returns to', async t => {
  const store = new DataStore(datasetFromData(SAMPLE_DATA))
  store.rebase(datasetFromData({ counting_lines: [line({ camera_id: 'cam-8' })] }))
  store.replace(datasetFromData({ cameras: [{ id: 'cam-9' }] }))
  t.equal(store.camera('cam-8'), undefined)
  store.reset()
  t.equal(store.camera('cam-8')?.lines.length, 1)
  t.equal(store.camera('cam-1'), undefined)
})
