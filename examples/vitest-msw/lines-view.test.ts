// @vitest-environment jsdom
/// <reference lib="dom" />
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { createNvrHandlers } from 'mock-nvr/msw'
import { showCountingLines } from './lines-view.js'

const nvr = createNvrHandlers({ baseUrl: 'http://nvr.test', tokens: ['demo-token'] })
const server = setupServer(...nvr.handlers)

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => nvr.reset())
afterAll(() => server.close())

test('shows the names of the lines', async () => {
  const list = document.createElement('ul')
  await showCountingLines(list, 'http://nvr.test', 'demo-token', 'cam-security-exit')
  expect(Array.from(list.querySelectorAll('li'), item => item.textContent)).toEqual(['Exit to airside', 'Roller bags leaving screening'])
})

test('asks to sign in again when the token is refused', async () => {
  const list = document.createElement('ul')
  await showCountingLines(list, 'http://nvr.test', 'expired-token', 'cam-security-exit')
  expect(list.textContent).toBe('Please sign in again.')
})

test('says the recorder is unavailable on a 503', async () => {
  nvr.injectFault({ status: 503 })
  const list = document.createElement('ul')
  await showCountingLines(list, 'http://nvr.test', 'demo-token', 'cam-security-exit')
  expect(list.textContent).toBe('The recorder is unavailable (503).')
})
