import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { createNvrHandlers } from 'mock-nvr/msw'
import { fetchCountingLines, NvrError } from './nvr-client.js'

// The bundled demo data; any non-empty bearer token is accepted, as the server does without --token.
const nvr = createNvrHandlers({ baseUrl: 'http://nvr.test' })
const server = setupServer(...nvr.handlers)

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => nvr.reset())
afterAll(() => server.close())

test('lists the security exit camera\'s counting lines', async () => {
  const lines = await fetchCountingLines('http://nvr.test', 'demo-token', 'cam-security-exit')
  expect(lines.map(line => line.id)).toEqual(['line-security-exit-airside', 'line-security-exit-roller-bags'])
})

test('a missing token is a 401 in the error envelope', async () => {
  await expect(fetchCountingLines('http://nvr.test', undefined, 'cam-security-exit')).rejects.toMatchObject({ status: 401 })
})

test('an injected 503 tells the client when to retry', async () => {
  nvr.injectFault({ status: 503, retryAfter: 5, times: 1 })
  const refusal = await fetchCountingLines('http://nvr.test', 'demo-token', 'cam-security-exit').catch((error: unknown) => error)
  expect(refusal).toBeInstanceOf(NvrError)
  expect(refusal).toMatchObject({ status: 503, retryAfterSeconds: 5, message: 'Injected fault: 503 Service Unavailable.' })
  expect(nvr.requests().map(request => request.status)).toEqual([503])
})
