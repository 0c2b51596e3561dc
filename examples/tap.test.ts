import t from 'tap'
import { startMockNvr } from 'mock-nvr'

// The code under test: a client of the NVR that lists the names of a camera's counting lines.
async function lineNames (baseUrl: string, cameraId: string): Promise<string[]> {
  const response = await fetch(`${baseUrl}/nvr/v1/cameras/${encodeURIComponent(cameraId)}/counting_lines`, {
    headers: { authorization: 'Bearer test-token' }
  })
  if (!response.ok) throw new Error(`the NVR answered ${response.status}`)
  const body = await response.json() as { content: Array<{ name: string }> }
  return body.content.map(line => line.name)
}

const door = {
  id: 'line-1',
  camera_id: 'cam-1',
  name: 'Main door',
  counting_line: 'LINESTRING(192 756, 1728 756)',
  anchor: 'POINT(960 640)',
  coalesce_entries: true,
  class: 'person',
  max_age: 30,
  created: '2024-05-01T08:30:00.000Z',
  updated: '2024-05-01T08:30:00.000Z'
}

// One mock for the whole file, on a free port; every test starts from the same state.
const nvr = await startMockNvr({ tokens: ['test-token'], data: { counting_lines: [door] } })
t.teardown(() => nvr.close())
t.afterEach(() => nvr.reset())

t.test('lists the names of the lines, with the token', async t => {
  t.same(await lineNames(nvr.url, 'cam-1'), ['Main door'])
  t.match(nvr.requests(), [{ method: 'GET', params: { id: 'cam-1' }, authenticated: true, status: 200 }])
})

t.test('sees replaced data on the very next call', async t => {
  nvr.use({ counting_lines: [door, { ...door, id: 'line-2', name: 'Side door' }] })
  t.same(await lineNames(nvr.url, 'cam-1'), ['Main door', 'Side door'])
})

t.test('reports a device that fails, for one request only', async t => {
  nvr.injectFault({ status: 503, times: 1 })
  await t.rejects(lineNames(nvr.url, 'cam-1'), /answered 503/)
  t.same(await lineNames(nvr.url, 'cam-1'), ['Main door'])
})
