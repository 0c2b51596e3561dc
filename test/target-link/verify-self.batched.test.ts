import t from 'tap'
import { startMockNvr, verifyTarget } from '../../src/index.js'
import { line } from '../helpers/app.js'

// Ids and a token with characters that need care in a URL or a header.
const TOKEN = 'tok+en/with=chars~!$'
const DATA = {
  cameras: [{ id: 'cam one/ä?#%' }, { id: 'cam-empty' }],
  counting_lines: [
    line({ id: 'line 1/ü%', camera_id: 'cam one/ä?#%' }),
    line({ id: 'line-2', camera_id: 'cam one/ä?#%' }),
    line({ id: 'line-3', camera_id: 'cam-2' })
  ]
}

t.test('mock-nvr verified against itself keeps the contract and differs in nothing', async t => {
  const nvr = await startMockNvr({ data: DATA, tokens: [TOKEN] })
  t.teardown(() => nvr.close())
  const report = await verifyTarget({ target: nvr.url, token: TOKEN, cameras: ['cam one/ä?#%', 'cam-empty', 'cam-2'] })
  t.strictSame(report.violations, [])
  t.strictSame(report.differences, [])
  t.equal(report.target, nvr.url)
  t.strictSame(report.cameras, ['cam one/ä?#%', 'cam-empty', 'cam-2'])
  t.equal(report.probedCamera, 'cam one/ä?#%', 'the unspecified cases were compared')
  t.match(report.time, /^\d{4}-\d\d-\d\dT/)
  const asked = nvr.requests().map(entry => `${entry.method} ${entry.url}`)
  t.ok(asked.includes('GET /nvr/v1/cameras/cam%20one%2F%C3%A4%3F%23%25/counting_lines/line%201%2F%C3%BC%25'), 'ids are percent-encoded once')
  t.ok(asked.some(request => request.startsWith('OPTIONS ')), 'the unspecified cases were asked')
  t.ok(asked.every(request => !request.includes(TOKEN)), 'the token is never in a path')
})

t.test('the bundled fixtures, every camera: no violation, no difference', async t => {
  const nvr = await startMockNvr({ tokens: [TOKEN] })
  t.teardown(() => nvr.close())
  const cameras = (nvr.data().cameras ?? []).map(camera => camera.id)
  const report = await verifyTarget({ target: `${nvr.url}/`, token: TOKEN, cameras: [...cameras, cameras[0] as string] })
  t.strictSame(report.cameras, cameras, 'a camera named twice is read once')
  t.strictSame(report.violations, [])
  t.strictSame(report.differences, [])
})
