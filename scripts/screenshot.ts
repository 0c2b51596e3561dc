// Takes the pictures of the docs, with the same Chromium as the browser tests; run with `npm run screenshot`.
//   docs/api-page.png: the API page after "Try it out" on the list operation.
//   docs/dashboard.png: the dashboard at /__admin/ui/ after a few requests, one of them failed by a fault.
import { mkdir } from 'node:fs/promises'
import type { BrowserContext } from 'playwright-core'
import { startMockNvr } from '../src/index.js'
import { authorize, openApiPage, tryOperation } from '../test-browser/api-page-actions.js'
import { launchChromium } from '../test-browser/chromium.js'
import { openDashboard } from '../test-browser/dashboard-actions.js'

const DOCS = new URL('../docs/', import.meta.url)
const ADMIN_TOKEN = 'demo-admin-token'

const nvr = await startMockNvr({ adminToken: ADMIN_TOKEN })
const browser = await launchChromium()
try {
  await mkdir(DOCS, { recursive: true })
  await apiPage(browser.context, new URL('api-page.png', DOCS))
  await dashboard(browser.context, new URL('dashboard.png', DOCS))
} finally {
  await browser.close()
  await nvr.close()
}

async function apiPage (context: BrowserContext, output: URL) {
  const page = await context.newPage()
  await page.setViewportSize({ width: 1200, height: 1500 })
  await openApiPage(page, nvr.url)
  await authorize(page, 'demo-token')
  const { status } = await tryOperation(page, 'listCountingLines')
  if (status !== '200') throw new Error(`the list operation answered ${status}, not 200`)
  await page.evaluate('window.scrollTo(0, 0)')
  await page.screenshot({ path: output.pathname })
  process.stdout.write(`wrote ${output.pathname}\n`)
}

async function dashboard (context: BrowserContext, output: URL) {
  const page = await context.newPage()
  await page.setViewportSize({ width: 1280, height: 1500 })
  nvr.resetRequests()
  await openDashboard(page, nvr.url, ADMIN_TOKEN)
  nvr.injectFault({ status: 503, times: 1, camera: 'cam-duty-free-entrance' })
  nvr.injectFault({ delay: { min: 200, max: 800 }, route: 'retrieve' })
  const api = (path: string) => fetch(`${nvr.url}/nvr/v1${path}`, { headers: { authorization: 'Bearer demo-token' } })
  for (const path of ['/cameras/cam-pier-b-gates/counting_lines', '/cameras/cam-security-exit/counting_lines/line-security-exit-airside',
    '/cameras/cam-duty-free-entrance/counting_lines', '/cameras/cam-nowhere/counting_lines', '/cameras/cam-security-lanes-1-4/counting_lines']) {
    await api(path)
  }
  await page.locator('#requests-table tbody tr').nth(4).waitFor()
  await page.locator('#fault-list .fault').first().waitFor()
  await page.screenshot({ path: output.pathname, fullPage: true })
  process.stdout.write(`wrote ${output.pathname}\n`)
}
