import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import { startMockNvr, type MockNvr } from '../src/index.js'
import { launchChromium } from './chromium.js'
import { startFrontend, type Frontend } from './frontend.js'

const TOKEN = 'browser-token'
const CAMERA = 'cam-pier-b-gates'

interface Outcome { kind: string, status?: number, body?: { content: Array<{ id: string }> | null }, error?: string }

const browser = await launchChromium()
const frontend = await startFrontend()
t.teardown(async () => {
  await browser.close()
  await frontend.close()
})

async function mock (t: Test, corsOrigins: string[] = []): Promise<MockNvr> {
  const nvr = await startMockNvr({ tokens: [TOKEN], corsOrigins })
  t.teardown(() => nvr.close())
  return nvr
}

/** Loads the frontend page, which fetches `api`, and waits until it shows what happened. */
async function loadFrontend (t: Test, frontend: Frontend, api: string, token?: string): Promise<Outcome> {
  const page: Page = await browser.context.newPage()
  t.teardown(() => page.close())
  const query = new URLSearchParams({ api, ...(token === undefined ? {} : { token }) })
  await page.goto(`${frontend.origin}/?${query.toString()}`)
  await page.locator('body[data-outcome]').waitFor({ state: 'attached' })
  const kind = await page.locator('body').getAttribute('data-outcome') as string
  return { kind, ...JSON.parse(await page.locator('#outcome').innerText()) }
}

t.test('a page on another origin fetches the counting lines with a bearer token', async t => {
  const nvr = await mock(t)
  const outcome = await loadFrontend(t, frontend, `${nvr.url}/nvr/v1/cameras/${CAMERA}/counting_lines`, TOKEN)
  t.equal(outcome.kind, 'answered')
  t.equal(outcome.status, 200)
  t.strictSame(outcome.body?.content?.map(line => line.id), ['line-b12-boarding-door', 'line-b14-boarding-door', 'line-b12-podium-queue', 'line-pier-b-corridor'])
})

t.test('the page can read a 401, since errors carry the CORS headers too', async t => {
  const nvr = await mock(t)
  const outcome = await loadFrontend(t, frontend, `${nvr.url}/nvr/v1/cameras/${CAMERA}/counting_lines`)
  t.equal(outcome.kind, 'answered')
  t.equal(outcome.status, 401)
  t.match(outcome.body, { result: { success: false, httpCode: 401 }, content: null })
})

t.test('with --cors-origin, the browser lets the listed origin through and blocks any other', async t => {
  const allowing = await mock(t, [frontend.origin])
  const allowed = await loadFrontend(t, frontend, `${allowing.url}/nvr/v1/cameras/${CAMERA}/counting_lines`, TOKEN)
  t.equal(allowed.kind, 'answered')
  t.equal(allowed.status, 200)

  const restricted = await mock(t, ['http://app.localhost:5173'])
  const blocked = await loadFrontend(t, frontend, `${restricted.url}/nvr/v1/cameras/${CAMERA}/counting_lines`, TOKEN)
  t.equal(blocked.kind, 'rejected', 'fetch rejects: the browser refused the answer')
  t.match(blocked.error, /TypeError: Failed to fetch/)
})
