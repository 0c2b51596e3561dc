import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { startMockNvr, type MockNvr } from 'mock-nvr'

let nvr: MockNvr

// The bundled demo fixtures, on a free port; any non-empty bearer token is accepted.
beforeAll(async () => { nvr = await startMockNvr() })
afterAll(() => nvr.close())
afterEach(() => nvr.reset())

async function exitLines (): Promise<Response> {
  return fetch(`${nvr.url}/nvr/v1/cameras/cam-security-exit/counting_lines`, { headers: { authorization: 'Bearer demo-token' } })
}

test('the security exit camera has two counting lines', async () => {
  const response = await exitLines()
  expect(response.status).toBe(200)
  const body = await response.json() as { content: Array<{ id: string }> }
  expect(body.content.map(line => line.id)).toEqual(['line-security-exit-airside', 'line-security-exit-roller-bags'])
})

test('a dropped connection makes fetch fail, and is in the journal', async () => {
  nvr.injectFault({ drop: true, route: 'list', times: 1 })
  await expect(exitLines()).rejects.toThrow()
  // The last entry: under happy-dom the GET comes after its CORS preflight.
  expect(nvr.requests().at(-1)?.status).toBe(null)
  expect((await exitLines()).status).toBe(200)
})
