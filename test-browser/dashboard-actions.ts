import type { BrowserContext, Page } from 'playwright-core'

/** Where mock-nvr serves the dashboard when its admin API is on. */
export const DASHBOARD_PATH = '/__admin/ui/'

/** Opens the dashboard, enters the admin token as a person does, and waits for the data to be drawn. */
export async function openDashboard (page: Page, baseUrl: string, adminToken: string): Promise<void> {
  await page.goto(`${baseUrl}${DASHBOARD_PATH}`)
  await page.getByRole('textbox', { name: 'Admin token' }).fill(adminToken)
  await page.getByRole('button', { name: 'Open the dashboard' }).click()
  await waitUntilLive(page)
}

/** Waits until the page has its data and the journal's stream is open. */
export async function waitUntilLive (page: Page): Promise<void> {
  await page.locator('#connection[data-state="live"]').waitFor()
  await page.locator('.camera').first().waitFor()
}

/** Lets only requests to 127.0.0.1 through; every host the pages of the context asked for is in the list. */
export async function recordHosts (context: BrowserContext): Promise<string[]> {
  const hosts: string[] = []
  await context.route('**/*', route => {
    const { hostname } = new URL(route.request().url())
    hosts.push(hostname)
    return hostname === '127.0.0.1' ? route.continue() : route.abort()
  })
  return hosts
}
