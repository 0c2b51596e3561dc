import t from 'tap'
import { startMockFleet } from '../src/index.js'
import { launchChromium } from './chromium.js'
import { DASHBOARD_PATH } from './dashboard-actions.js'

const ADMIN_TOKEN = 'fleet-admin-token'

const browser = await launchChromium()
// A manual clock: nothing changes by itself while the page is looked at.
const fleet = await startMockFleet({ count: 3, adminToken: ADMIN_TOKEN, clock: 'manual' })
t.teardown(async () => {
  await browser.close()
  await fleet.close()
})

async function refused (url: string): Promise<boolean> {
  return await fetch(`${url}/healthz`).then(() => false, () => true)
}

t.test('a tile\'s buttons take its device offline, reboot it and bring it back; the tile shows the state', async t => {
  const page = await browser.context.newPage()
  t.teardown(() => page.close())
  await page.goto(`${fleet.controlUrl}${DASHBOARD_PATH}`)
  await page.getByRole('textbox', { name: 'Admin token' }).fill(ADMIN_TOKEN)
  await page.getByRole('button', { name: 'Open the dashboard' }).click()
  const state = page.locator('.tile[data-name="nvr-002"] .tile-state')
  await state.waitFor()
  t.equal(await state.textContent(), 'online')
  const health = page.getByRole('group', { name: 'Health of nvr-002' })

  await health.getByRole('button', { name: 'Offline' }).click()
  await page.locator('.tile[data-name="nvr-002"][data-state="offline"]').waitFor()
  t.ok(await refused(fleet.device('nvr-002')?.url as string), 'its port refuses connections')
  t.notOk(await refused(fleet.device('nvr-001')?.url as string), 'the others serve on')

  await health.getByRole('button', { name: 'Online' }).click()
  await page.locator('.tile[data-name="nvr-002"][data-state="online"]').waitFor()
  t.notOk(await refused(fleet.device('nvr-002')?.url as string))

  await health.getByRole('button', { name: 'Reboot' }).click()
  await page.locator('.tile[data-name="nvr-002"][data-state="rebooting (down)"]').waitFor()
  await fleet.clock.advance(5000)
  t.equal((await fetch(`${fleet.device('nvr-002')?.url as string}/healthz`)).status, 503)
  // The fleet's event stream: the tile follows the device without a click.
  await page.locator('.tile[data-name="nvr-002"][data-state="rebooting (starting)"]').waitFor()
  t.match(fleet.device('nvr-002')?.health(), { state: 'rebooting', phase: 'starting' })
})

t.test('a tile changes state as soon as its device\'s health changes elsewhere, from the fleet\'s events alone', async t => {
  const page = await browser.context.newPage()
  t.teardown(() => page.close())
  await page.goto(`${fleet.controlUrl}${DASHBOARD_PATH}`)
  await page.getByRole('textbox', { name: 'Admin token' }).fill(ADMIN_TOKEN)
  await page.getByRole('button', { name: 'Open the dashboard' }).click()
  await page.locator('.tile[data-name="nvr-003"][data-state="online"]').waitFor()
  // Once the events flow, the list is never read again: only the stream can change the tile.
  await page.getByRole('status').filter({ hasText: 'devices' }).waitFor()
  let listReads = 0
  await page.route('**/__admin/devices', async route => {
    listReads++
    await route.abort()
  })
  const offline = await fetch(`${fleet.controlUrl}/__admin/devices/nvr-003/health`, { method: 'PUT', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: '{"state":"offline"}' })
  t.equal(offline.status, 200)
  await page.locator('.tile[data-name="nvr-003"][data-state="offline"]').waitFor()
  t.equal(await page.locator('.tile[data-name="nvr-003"] .tile-state').textContent(), 'offline')
  t.comment(`${listReads} reads of the list refused meanwhile`)
  await fleet.device('nvr-003')?.setHealth({ state: 'online' })
})
