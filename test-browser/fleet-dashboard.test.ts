import { createServer } from 'node:net'
import t, { type Test } from 'tap'
import type { Locator, Page } from 'playwright-core'
import { startMockFleet } from '../src/index.js'
import { launchChromium } from './chromium.js'
import { DASHBOARD_PATH, recordHosts, waitUntilLive } from './dashboard-actions.js'

const ADMIN_TOKEN = 'fleet-admin-token'
const API = { authorization: 'Bearer any-token' }

const browser = await launchChromium()
const hosts = await recordHosts(browser.context)
const fleet = await startMockFleet({ count: 120, adminToken: ADMIN_TOKEN })
t.teardown(async () => {
  await browser.close()
  await fleet.close()
})

t.test('the control address opens on the fleet: a tile per device with its state and rate, filtered by name', async t => {
  const page = await browser.context.newPage()
  t.teardown(() => page.close())
  await page.goto(`${fleet.controlUrl}${DASHBOARD_PATH}`)
  await page.getByRole('textbox', { name: 'Admin token' }).fill(ADMIN_TOKEN)
  await page.getByRole('button', { name: 'Open the dashboard' }).click()
  const tiles = page.locator('#fleet-tiles .tile')
  await page.locator('#fleet-tiles .tile[data-name="nvr-120"]').waitFor()
  t.equal(await tiles.count(), 120, 'one tile per device, and no more')
  t.equal(await page.locator('.tile[data-name="nvr-007"] .tile-state').textContent(), 'online')

  // The rate is read from the journal's count every 2 s: the tile shows it once the next read comes.
  for (let index = 0; index < 20; index++) await fetch(`${fleet.device('nvr-007')?.url as string}/healthz`, { headers: API })
  await page.locator('.tile[data-name="nvr-007"] .tile-rate:not(:text("0.0 req/s"))').waitFor()
  t.equal(await page.locator('.tile[data-name="nvr-008"] .tile-rate').textContent(), '0.0 req/s')
  t.equal(await tiles.count(), 120, 'requests add no element')

  await page.getByRole('searchbox', { name: 'Device name' }).fill('nvr-01')
  t.equal(await page.locator('#fleet-tiles .tile:visible').count(), 10)
  await page.getByRole('searchbox', { name: 'Device name' }).fill('')
  t.equal(await page.locator('#fleet-tiles .tile:visible').count(), 120)
})

t.test('a tile opens that device\'s own view, where a fault is injected on that device alone', async t => {
  const page = await browser.context.newPage()
  t.teardown(() => page.close())
  await page.goto(`${fleet.controlUrl}${DASHBOARD_PATH}`)
  // The token is kept per tab.
  await page.getByRole('textbox', { name: 'Admin token' }).fill(ADMIN_TOKEN)
  await page.getByRole('button', { name: 'Open the dashboard' }).click()
  await page.locator('.tile[data-name="nvr-042"]').click()
  await waitUntilLive(page)
  t.equal(await page.locator('#device-name').textContent(), 'nvr-042')
  t.equal(await page.locator('.camera').count(), fleet.device('nvr-042')?.data().cameras?.length)

  await page.getByRole('textbox', { name: 'Status', exact: true }).fill('503')
  await page.getByRole('button', { name: 'Inject' }).click()
  await page.locator('#fault-list li').first().waitFor()
  t.match(fleet.device('nvr-042')?.faults(), [{ status: 503 }])
  t.strictSame(fleet.device('nvr-041')?.faults(), [], 'the other devices have none')
  t.equal((await fetch(`${fleet.device('nvr-042')?.url as string}/nvr/v1/cameras/x/counting_lines`, { headers: API })).status, 503)
  await page.locator('#requests-table tbody tr').first().waitFor()

  // Its Health panel: on the control address offline needs no `for`, so the button gives none.
  await page.getByRole('group', { name: 'Set the device\'s health' }).getByRole('button', { name: 'Offline', exact: true }).click()
  await page.locator('#health-state[data-state="offline"]').waitFor()
  t.match(fleet.device('nvr-042')?.health(), { state: 'offline', listening: false })
  t.notOk('for' in (fleet.device('nvr-042')?.health() ?? {}))

  // A port taken meanwhile: the device stays offline, and the panel says why.
  const port = fleet.device('nvr-042')?.port as number
  const squatter = createServer()
  await new Promise<void>(resolve => squatter.listen(port, '127.0.0.1', resolve))
  await page.getByRole('group', { name: 'Set the device\'s health' }).getByRole('button', { name: 'Online', exact: true }).click()
  await page.getByText(`offline: port ${port} is in use by another program; it tries again at its next change`).waitFor()
  await new Promise(resolve => squatter.close(resolve))
  await fleet.device('nvr-042')?.setHealth({ state: 'online' })
  await page.locator('#health-state[data-state="online"]').waitFor()

  await page.getByRole('link', { name: '← Fleet' }).click()
  await page.locator('.tile[data-name="nvr-120"]').waitFor()
  t.strictSame([...new Set(hosts)], ['127.0.0.1'])
})

async function openFleet (page: Page) {
  await page.goto(`${fleet.controlUrl}${DASHBOARD_PATH}`)
  await page.getByRole('textbox', { name: 'Admin token' }).fill(ADMIN_TOKEN)
  await page.getByRole('button', { name: 'Open the dashboard' }).click()
  await page.locator('.tile[data-name="nvr-120"]').waitFor()
}

/** Every link the header shows leads to something shown: each of its targets, as the link's text and its target's id. */
async function headerLinks (t: Test, page: Page): Promise<string[]> {
  const links = page.locator('header a:visible')
  const seen: string[] = []
  for (let index = 0; index < await links.count(); index++) {
    const link = links.nth(index)
    const href = await link.getAttribute('href') as string
    t.match(href, /^#[a-z-]+$/, `${await link.textContent()} leads to a part of the page`)
    const target = page.locator(href)
    t.equal(await target.count(), 1, `${href} exists`)
    await link.click()
    t.equal(new URL(page.url()).hash, href)
    t.ok(await target.isVisible(), `${href} is shown`)
    seen.push(`${await link.textContent()} ${href}`)
  }
  return seen
}

t.test('the header of the fleet view shows no link to a device\'s sections, which it does not show; a device\'s view links each of them', async t => {
  const page = await browser.context.newPage()
  t.teardown(() => page.close())
  await openFleet(page)
  await page.getByRole('status').filter({ hasText: 'devices' }).waitFor()
  for (const name of ['Health', 'Data', 'Requests', 'Faults']) {
    t.notOk(await page.getByRole('link', { name, exact: true }).isVisible(), `no ${name} link in the fleet view`)
  }
  t.strictSame(await headerLinks(t, page), [], 'no dead link in the header')
  t.equal(new URL(page.url()).hash, '')

  await page.locator('.tile[data-name="nvr-005"]').click()
  await waitUntilLive(page)
  await page.getByRole('region', { name: 'Health' }).waitFor()
  t.strictSame(await headerLinks(t, page), ['Health #health', 'Data #data', 'Requests #requests', 'Faults #faults'])
})

/** The contrast ratio of an element's text on its background (WCAG 2). */
async function contrastOf (locator: Locator): Promise<number> {
  const [text, background] = await locator.evaluate(element => {
    const style = getComputedStyle(element)
    return [style.color, style.backgroundColor].map(colour => (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number))
  }) as [number[], number[]]
  const luminance = (rgb: number[]) => {
    const [r, g, b] = rgb.map(value => value / 255).map(value => value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4) as [number, number, number]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
  }
  const [lighter, darker] = [luminance(text), luminance(background)].sort((a, b) => b - a) as [number, number]
  return (lighter + 0.05) / (darker + 0.05)
}

t.test('a device with faults in force says so on its tile, whoever injected them; the marker clears them', async t => {
  const page = await browser.context.newPage()
  t.teardown(() => page.close())
  await openFleet(page)
  t.equal(await page.locator('.tile-faults:visible').count(), 0, 'no device has a fault yet')

  // Injected from outside the page: the tile learns of them from the devices' list, read every 2 s.
  fleet.device('nvr-002')?.injectFault({ status: 503 })
  fleet.device('nvr-002')?.injectFault({ delay: 100, route: 'list' })
  fleet.device('nvr-003')?.injectFault({ status: 500, times: 1 })
  const marker = page.getByRole('button', { name: '2 faults on nvr-002 — Clear' })
  await marker.waitFor()
  t.equal(await marker.textContent(), '⚠ 2 faults on nvr-002 — Clear', 'in words, not by colour alone')
  const other = page.getByRole('button', { name: '1 fault on nvr-003 — Clear' })
  await other.waitFor()
  t.equal(await page.locator('.tile-faults:visible').count(), 2, 'the devices without a fault have no marker')
  await page.getByRole('status').filter({ hasText: '2 with faults in force' }).waitFor()
  t.ok(await contrastOf(marker) >= 4.5, 'its text stands out from its background')
  t.ok(Number.parseFloat(await marker.evaluate(element => getComputedStyle(element).fontSize)) >= 12, 'its text is not tiny')

  await marker.click()
  await marker.waitFor({ state: 'detached' })
  t.strictSame(fleet.device('nvr-002')?.faults(), [], 'the device\'s faults are cleared')
  t.equal(fleet.device('nvr-003')?.faults().length, 1, 'another device\'s are not')

  // A fault used up by a request is gone from the tile at the next read of the list.
  t.equal((await fetch(`${fleet.device('nvr-003')?.url as string}/nvr/v1/cameras/x/counting_lines`, { headers: API })).status, 500)
  await other.waitFor({ state: 'detached' })
  t.equal(await page.locator('.tile-faults:visible').count(), 0)
  await page.getByRole('status').filter({ hasText: /^120 devices, [\d.]+ requests per second in all$/ }).waitFor()
})

t.test('the fleet view reads on a laptop and on a phone: no text under 12 px, none cut off, nothing wider than the screen', async t => {
  fleet.device('nvr-002')?.injectFault({ status: 503 })
  await fleet.device('nvr-003')?.setHealth({ state: 'rebooting', down: 600_000, starting: 5000 })
  t.teardown(async () => {
    fleet.device('nvr-002')?.clearFaults()
    await fleet.device('nvr-003')?.setHealth({ state: 'online' })
  })
  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    const page = await browser.context.newPage()
    t.teardown(() => page.close())
    await page.setViewportSize(viewport)
    await openFleet(page)
    await page.getByRole('button', { name: '1 fault on nvr-002 — Clear' }).waitFor()
    await page.locator('.tile[data-name="nvr-003"][data-state="rebooting (down)"]').waitFor()
    t.equal(await page.evaluate('document.documentElement.scrollWidth'), viewport.width, `${viewport.width} px: nothing is wider than the screen`)
    // Every element of the header and the first tiles that holds text of its own, as it is drawn.
    const problems = await page.evaluate(() => {
      const found: string[] = []
      const shown = Array.from(document.querySelectorAll('header *, #fleet > :not(#fleet-tiles), #fleet > :not(#fleet-tiles) *, .tile-box:nth-child(-n+12) *'))
        .filter(element => element.checkVisibility() && element.getBoundingClientRect().width > 1)
      for (const element of shown) {
        const text = Array.from(element.childNodes).filter(node => node.nodeType === Node.TEXT_NODE).map(node => node.textContent?.trim()).join('')
        if (text === '') continue
        const size = Number.parseFloat(getComputedStyle(element).fontSize)
        if (size < 12) found.push(`"${text}" is ${size} px`)
        if (element.scrollWidth > element.clientWidth + 1) found.push(`"${text}" is cut off (${element.scrollWidth} > ${element.clientWidth})`)
      }
      return found
    })
    t.strictSame(problems, [], `${viewport.width} px: every text readable`)
  }
})
