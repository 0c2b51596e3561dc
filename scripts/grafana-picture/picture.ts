import { readFile } from 'node:fs/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import type { BrowserContext } from 'playwright-core'
import type { MockFleet } from '../../src/index.js'
import { panelData, type Dashboard, type Window } from './panel-data.js'
import { startPrometheus, type Prometheus } from './prometheus.js'
import { PAGE_WIDTH, renderDashboard } from './render.js'
import { RUN_SECONDS, runScenario, startScenarioFleet } from './scenario.js'

const DASHBOARD = new URL('../../examples/grafana/mock-nvr-dashboard.json', import.meta.url)
const ADMIN_TOKEN = 'demo-admin-token'
/** Seconds between two scrapes: shorter than the 15–30 s the docs advise, so a four-minute run has points enough. */
const SCRAPE_SECONDS = 5

/**
 * The dashboard's picture: a fleet runs a recorded load test while Prometheus scrapes its metrics with the
 * example's scrape config; each panel's queries are then asked of that Prometheus, and the answers drawn in the
 * dashboard's layout, in Chromium. Grafana itself cannot run here, so the drawing is this script's, not Grafana's.
 */
export async function grafanaPicture (context: BrowserContext, output: URL): Promise<void> {
  const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as Dashboard
  const fleet = await startScenarioFleet(ADMIN_TOKEN)
  let prometheus: Prometheus | undefined
  let drawn
  try {
    prometheus = await startPrometheus(new URL(fleet.controlUrl), ADMIN_TOKEN, SCRAPE_SECONDS)
    const window = await record(fleet, prometheus)
    const note = `Drawn by npm run screenshot -- grafana from Prometheus ${prometheus.version}'s answers to each panel's queries, over a ` +
      `${RUN_SECONDS / 60}-minute load test of a 40-device mock-nvr fleet it scraped every ${SCRAPE_SECONDS} s; not a screenshot of Grafana.`
    drawn = renderDashboard(dashboard, await panelData(dashboard, prometheus, window), window, note)
  } finally {
    await prometheus?.close()
    await fleet.close()
  }
  const page = await context.newPage()
  await page.setViewportSize({ width: PAGE_WIDTH, height: drawn.height })
  await page.setContent(drawn.html)
  await page.screenshot({ path: output.pathname })
  await page.close()
  process.stdout.write(`wrote ${output.pathname}\n`)
}

async function record (fleet: MockFleet, prometheus: Prometheus): Promise<Window> {
  await prometheus.scraped()
  const start = Math.floor(Date.now() / 1000)
  await runScenario(fleet, line => process.stdout.write(`grafana: ${line}\n`))
  const end = Math.floor(Date.now() / 1000)
  // Two more scrapes, so that the window's last step has its samples; the window ends with the load test.
  await sleep(2 * SCRAPE_SECONDS * 1000)
  return { start, end: end - (end - start) % SCRAPE_SECONDS, step: SCRAPE_SECONDS, scrapeInterval: SCRAPE_SECONDS }
}
