import assert from 'node:assert/strict'
import { after, afterEach, before, test } from 'node:test'
import { startMockNvr, type MockNvr } from 'mock-nvr'

let nvr: MockNvr

// The bundled demo fixtures, on a free port; any non-empty bearer token is accepted.
before(async () => { nvr = await startMockNvr() })
after(() => nvr.close())
afterEach(() => nvr.reset())

async function exitLines (): Promise<Response> {
  return fetch(`${nvr.url}/nvr/v1/cameras/cam-security-exit/counting_lines`, { headers: { authorization: 'Bearer demo-token' } })
}

test('the security exit camera has two counting lines', async () => {
  const response = await exitLines()
  assert.equal(response.status, 200)
  const body = await response.json() as { content: Array<{ id: string }> }
  assert.deepEqual(body.content.map(line => line.id), ['line-security-exit-airside', 'line-security-exit-roller-bags'])
})

test('a dropped connection makes fetch fail, and is in the journal', async () => {
  nvr.injectFault({ drop: true, route: 'list', times: 1 })
  await assert.rejects(exitLines(), TypeError)
  assert.equal(nvr.requests()[0]?.status, null)
  assert.equal((await exitLines()).status, 200)
})

test('a rate limit answers 429 with Retry-After', async () => {
  nvr.injectFault({ status: 429, retryAfter: 2, camera: 'cam-security-exit' })
  const response = await exitLines()
  assert.equal(response.status, 429)
  assert.equal(response.headers.get('retry-after'), '2')
})
