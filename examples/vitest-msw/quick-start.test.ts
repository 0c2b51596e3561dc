import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { createNvrHandlers } from 'mock-nvr/msw'

const nvr = createNvrHandlers({ baseUrl: 'http://nvr.test' })
const server = setupServer(...nvr.handlers)
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => nvr.reset())
afterAll(() => server.close())

test('an injected 503 says when to retry', async () => {
  nvr.injectFault({ status: 503, retryAfter: 5, times: 1 })
  const response = await fetch('http://nvr.test/nvr/v1/cameras/cam-security-exit/counting_lines', { headers: { authorization: 'Bearer t' } })
  expect([response.status, response.headers.get('retry-after')]).toEqual([503, '5'])
})
