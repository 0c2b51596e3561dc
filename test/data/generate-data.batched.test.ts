import t, { type Test } from 'tap'
import { describeGenerated } from '../../src/start/startup-data.js'
import { parseGenerateSize } from '../../src/data/generate-size.js'
import { camerasOf } from '../../src/data/dataset.js'
import { datasetFromData } from '../../src/data/dataset.js'
import { generateCameras } from '../../src/data/generate.js'
import { generateFixtureData } from '../../src/index.js'
import { OptionsError } from '../../src/errors/errors.js'
import { startMockNvr } from '../../src/start/start-mock-nvr.js'
import { AUTH } from '../helpers/app.js'
import { captureLogs } from '../helpers/log-capture.js'

async function start (t: Test, seed: number, cameras = 3, linesPerCamera = 2) {
  const logs = captureLogs()
  const nvr = await startMockNvr({ generate: { cameras, linesPerCamera }, seed, logger: logs.logger })
  t.teardown(() => nvr.close())
  const get = (url: string) => nvr.app.inject({ url: `/nvr/v1${url}`, headers: AUTH })
  return { nvr, logs, get }
}

t.test('generated cameras and lines follow the documented id pattern, and the log names them', async t => {
  const { logs, get } = await start(t, 1)
  const list = await get('/cameras/cam-3/counting_lines')
  t.equal(list.statusCode, 200)
  t.strictSame(list.json().content.map((line: { id: string }) => line.id), ['line-1', 'line-2'])
  t.equal((await get('/cameras/cam-1/counting_lines/line-2')).statusCode, 200)
  t.equal((await get('/cameras/cam-4/counting_lines')).statusCode, 404)
  t.equal((await get('/cameras/cam-1/counting_lines/line-3')).statusCode, 404)
  t.match(logs.records.find(record => record.msg === 'serving counting lines'), { source: 'generated data', cameras: 3, countingLines: 6 })
  t.ok(logs.records.some(record => record.msg === 'generated cameras cam-1 … cam-3, each with lines line-1 … line-2 (seed 1)'))
})

t.test('the same seed serves the same bytes and another seed other data', async t => {
  const bodies = async (seed: number) => {
    const { get } = await start(t, seed)
    return Promise.all(['cam-1', 'cam-2', 'cam-3'].map(async camera => (await get(`/cameras/${camera}/counting_lines`)).body))
  }
  const first = await bodies(7)
  t.strictSame(await bodies(7), first)
  t.notSame(await bodies(8), first)
  t.strictSame(generateFixtureData({ cameras: 2, linesPerCamera: 3, seed: 7 }), generateFixtureData({ cameras: 2, linesPerCamera: 3, seed: 7 }))
  t.notSame(generateFixtureData({ cameras: 2, linesPerCamera: 3, seed: 7 }), generateFixtureData({ cameras: 2, linesPerCamera: 3, seed: 8 }))
})

t.test('cameras without lines can be generated', async t => {
  const { logs, get } = await start(t, 1, 1, 0)
  t.strictSame((await get('/cameras/cam-1/counting_lines')).json().content, [])
  t.ok(logs.records.some(record => record.msg === 'generated camera cam-1, each with no lines (seed 1)'))
  t.equal(describeGenerated({ cameras: 2, linesPerCamera: 1 }, 9), 'generated cameras cam-1 … cam-2, each with line line-1 (seed 9)')
})

t.test('generated data replaces fixtures and in-memory data, and its size is bounded', async t => {
  const generate = { cameras: 1, linesPerCamera: 1 }
  await t.rejects(startMockNvr({ generate, fixtures: 'fixtures' }),
    new OptionsError('option generate cannot be combined with option fixtures: generated data is served instead of fixture files'))
  await t.rejects(startMockNvr({ generate, data: {} }),
    new OptionsError('option generate cannot be combined with option data: generated data is served instead of the data given'))
  await t.rejects(startMockNvr({ generate: { cameras: 1001, linesPerCamera: 1000 } }),
    new OptionsError('option generate 1001x1000 makes 1001000 lines; at most 1000000 lines in all can be generated'))
  await t.rejects(startMockNvr({ generate: { cameras: 0, linesPerCamera: 5 } }), { name: 'OptionsError', message: 'option generate.cameras must be a whole number from 1 to 10000, not 0' })
  await t.rejects(startMockNvr({ generate: { cameras: 1 } as typeof generate }), { name: 'OptionsError', message: 'option generate.linesPerCamera is missing' })
})

t.test('without generate, in-memory data and fixture files are served as before', async t => {
  const logs = captureLogs()
  const nvr = await startMockNvr({ data: { cameras: [{ id: 'cam-x' }] }, logger: logs.logger })
  t.teardown(() => nvr.close())
  t.match(logs.records.find(record => record.msg === 'serving counting lines'), { source: 'in-memory data', cameras: 1 })
  t.notOk(logs.records.some(record => record.msg.startsWith('generated')))
})

t.test('a size is read as CAMERASxLINES and a bad one is explained', async t => {
  t.strictSame(parseGenerateSize('100x20'), { cameras: 100, linesPerCamera: 20 })
  t.strictSame(parseGenerateSize(' 3 X 4 '), { cameras: 3, linesPerCamera: 4 })
  t.strictSame(parseGenerateSize('5x0'), { cameras: 5, linesPerCamera: 0 })
  t.equal(parseGenerateSize('10xabc'), "must be CAMERASxLINES, e.g. 100x20, not '10xabc'")
  t.equal(parseGenerateSize('-1x5'), "must be CAMERASxLINES, e.g. 100x20, not '-1x5'")
  t.equal(parseGenerateSize('0x5'), "needs from 1 to 10000 cameras, not 0 (in '0x5')")
  t.equal(parseGenerateSize('100000x20'), "needs from 1 to 10000 cameras, not 100000 (in '100000x20')")
  t.equal(parseGenerateSize('5x10001'), "needs from 0 to 10000 lines per camera, not 10001 (in '5x10001')")
  t.strictSame(parseGenerateSize('10000x100'), { cameras: 10000, linesPerCamera: 100 }, 'a million lines is the most')
  t.equal(parseGenerateSize('1001x1000'), '1001x1000 makes 1001000 lines; at most 1000000 lines in all can be generated')
})

t.test('generated cameras skip the fixture checks because they pass them by construction', async t => {
  for (const seed of [1, 2, 3, 4294967295]) {
    const size = { cameras: 7, linesPerCamera: 60, seed }
    t.strictSame([...generateCameras(size)], camerasOf(datasetFromData(generateFixtureData(size))), `seed ${seed}`)
  }
})
