// Takes the pictures of the docs, with the same Chromium as the browser tests; run with `npm run screenshot`, or name
// the ones to take again: `npm run screenshot -- fleet`.
//   api-page   docs/api-page.png: the API page after "Try it out" on the list operation.
//   dashboard  docs/dashboard.png: the dashboard at /__admin/ui/ after a few requests, one of them failed by a fault.
//   fleet      docs/fleet-dashboard.png and docs/fleet-dashboard-phone.png: a fleet of 1,000 devices on a laptop's
//              screen and a phone's (390×844), some of them offline, rebooting, with faults in force or answering.
//   grafana    docs/grafana-dashboard.png: the panels of examples/grafana/mock-nvr-dashboard.json, drawn from a real
//              Prometheus (Debian's package) scraping a fleet through a four-minute load test (grafana-picture/).
import { mkdir } from 'node:fs/promises'
import type { BrowserContext, Page } from 'playwright-core'
import { startMockFleet, startMockNvr, type MockFleet, type MockNvr } from '../src/index.js'
import { authorize, openApiPage, tryOperation } from '../test-browser/api-page-actions.js'
import { launchChromium } from '../test-browser/chromium.js'
import { DASHBOARD_PATH, openDashboard } from '../test-browser/dashboard-actions.js'
import { grafanaPicture } from './grafana-picture/picture.js'

const DOCS = new URL('../docs/', import.meta.url)
const ADMIN_TOKEN = 'demo-admin-token'
const API = { authorization: 'Bearer demo-token' }
const PICTURES: Record<string, (context: BrowserContext) => Promise<void>> = {
  'api-page': context => withNvr(nvr => apiPage(context, nvr, new URL('api-page.png', DOCS))),
  dashboard: context => withNvr(nvr => dashboard(context, nvr, new URL('dashboard.png', DOCS))),
  fleet: context => fleetPictures(context),
  grafana: context => grafanaPicture(context, new URL('grafana-dashboard.png', DOCS))
}

const wanted = process.argv.slice(2)
const unknown = wanted.filter(name => !(name in PICTURES))
if (unknown.length > 0) {
  process.stderr.write(`screenshot: no picture named ${unknown.join(', ')}; the pictures are ${Object.keys(PICTURES).join(', ')}\n`)
  process.exit(2)
}

const browser = await launchChromium()
try {
  await mkdir(DOCS, { recursive: true })
  for (const name of wanted.length === 0 ? Object.keys(PICTURES) : wanted) await PICTURES[name]?.(browser.context)
} finally {
  await browser.close()
}

async function withNvr (take: (nvr: MockNvr) => Promise<void>) {
  const nvr = await startMockNvr({ adminToken: ADMIN_TOKEN })
  try {
    await take(nvr)
  } finally {
    await nvr.close()
  }
}

async function apiPage (context: BrowserContext, nvr: MockNvr, output: URL) {
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

async function dashboard (context: BrowserContext, nvr: MockNvr, output: URL) {
  const page = await context.newPage()
  await page.setViewportSize({ width: 1280, height: 1500 })
  nvr.resetRequests()
  await openDashboard(page, nvr.url, ADMIN_TOKEN)
  nvr.injectFault({ status: 503, times: 1, camera: 'cam-duty-free-entrance' })
  nvr.injectFault({ delay: { min: 200, max: 800 }, route: 'retrieve' })
  const api = (path: string) => fetch(`${nvr.url}/nvr/v1${path}`, { headers: API })
  for (const path of ['/cameras/cam-pier-b-gates/counting_lines', '/cameras/cam-security-exit/counting_lines/line-security-exit-airside',
    '/cameras/cam-duty-free-entrance/counting_lines', '/cameras/cam-nowhere/counting_lines', '/cameras/cam-security-lanes-1-4/counting_lines']) {
    await api(path)
  }
  await page.locator('#requests-table tbody tr').nth(4).waitFor()
  await page.locator('#fault-list .fault').first().waitFor()
  await page.screenshot({ path: output.pathname, fullPage: true })
  process.stdout.write(`wrote ${output.pathname}\n`)
}

// 1,000 devices on free ports, on a manual clock so that a reboot stays where it is while the pictures are taken.
async function fleetPictures (context: BrowserContext) {
  const fleet = await startMockFleet({ count: 1000, port: 0, adminToken: ADMIN_TOKEN, clock: 'manual' })
  try {
    await fleet.device('nvr-005')?.setHealth({ state: 'offline' })
    await fleet.device('nvr-012')?.setHealth({ state: 'rebooting', down: 60_000, starting: 5000 })
    fleet.device('nvr-003')?.injectFault({ status: 503 })
    fleet.device('nvr-003')?.injectFault({ delay: { min: 100, max: 800 } })
    fleet.device('nvr-010')?.injectFault({ status: 500, times: 5 })
    await fleetPage(context, fleet, { width: 1280, height: 900 }, new URL('fleet-dashboard.png', DOCS))
    await fleetPage(context, fleet, { width: 390, height: 844 }, new URL('fleet-dashboard-phone.png', DOCS))
  } finally {
    await fleet.close()
  }
}

async function fleetPage (context: BrowserContext, fleet: MockFleet, viewport: { width: number, height: number }, output: URL) {
  const page = await context.newPage()
  await page.setViewportSize(viewport)
  await page.goto(`${fleet.controlUrl}${DASHBOARD_PATH}`)
  await page.getByRole('textbox', { name: 'Admin token' }).fill(ADMIN_TOKEN)
  await page.getByRole('button', { name: 'Open the dashboard' }).click()
  await page.getByRole('status').filter({ hasText: '2 with faults in force' }).waitFor()
  await traffic(page, fleet)
  // No tile under the pointer, which would be drawn as hovered.
  await page.mouse.move(0, viewport.height - 1)
  await page.screenshot({ path: output.pathname })
  await page.close()
  process.stdout.write(`wrote ${output.pathname}\n`)
}

// Requests to a few devices, then the next read of the list shows their rates.
async function traffic (page: Page, fleet: MockFleet) {
  await Promise.all(['nvr-001', 'nvr-002', 'nvr-004', 'nvr-007', 'nvr-008'].map(async (name, index) => {
    const device = fleet.device(name)
    const camera = device?.data().cameras?.[0]?.id as string
    for (let count = 0; count < 8 * (index + 1); count++) await fetch(`${device?.url as string}/nvr/v1/cameras/${camera}/counting_lines`, { headers: API })
  }))
  await page.locator('.tile[data-name="nvr-008"] .tile-rate:not(:text("0.0 req/s"))').waitFor()
}
