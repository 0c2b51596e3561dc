import t from 'tap'
import { startMockNvr } from '../src/index.js'
import { launchChromium } from './chromium.js'
import { openDashboard } from './dashboard-actions.js'

const ADMIN_TOKEN = 'health-admin-token'
const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` }

const browser = await launchChromium()
// A manual clock: the schedule moves only when the test says so.
const nvr = await startMockNvr({
  port: 0,
  adminToken: ADMIN_TOKEN,
  clock: 'manual',
  drift: 60_000,
  health: [
    { at: 0, state: 'online' },
    { at: 60_000, state: 'slow', latency: 100, for: 5000 },
    { at: 120_000, state: 'rebooting', down: 2000, starting: 3000 }
  ]
})
t.teardown(async () => {
  await browser.close()
  await nvr.close()
})

const healthOverHttp = async () => (await (await fetch(`${nvr.url}/__admin/health`, { headers: ADMIN })).json()).content as { state: string }

t.test('the Health panel shows the schedule coming next, and the changes and edits as the clock walks it', async t => {
  const page = await browser.context.newPage()
  t.teardown(() => page.close())
  await openDashboard(page, nvr.url, ADMIN_TOKEN)
  const panel = page.getByRole('region', { name: 'Health' })
  const next = panel.getByRole('list', { name: 'Coming next' })
  await next.getByText('slow (for 5 s, 100 ms an answer)').waitFor()
  await next.getByText('rebooting (down 2 s, starting 3 s)').waitFor()
  t.equal(await panel.getByRole('status').textContent(), 'online')
  t.ok(await panel.getByText('No change yet.', { exact: true }).isVisible())
  const widthOf = async (selector: string) => (await page.locator(selector).boundingBox())?.width
  t.equal(await widthOf('#health'), await widthOf('#data'), 'on a wide screen the panel takes the page\'s width, as the data does')

  const clock = await fetch(`${nvr.url}/__admin/clock`, { method: 'POST', headers: { ...ADMIN, 'content-type': 'application/json' }, body: '{"advance":60000}' })
  t.equal(clock.status, 200)
  const recent = panel.getByRole('list', { name: 'Recent changes' })
  await recent.getByText('health: slow (schedule)').waitFor()
  await recent.locator('li[data-kind="data"]').first().waitFor()
  await panel.locator('#health-state[data-state="slow"]').waitFor()
  t.notOk(await next.getByText('slow (for 5 s').isVisible(), 'what has come is no longer next')
  t.match(await recent.locator('li[data-kind="data"]').first().textContent(), /data: line .+ of camera .+ (renamed|moved|added|removed)/)
})

t.test('the Health panel\'s buttons set the device\'s health; offline comes with a `for`, and the page says it comes back', async t => {
  const page = await browser.context.newPage()
  t.teardown(() => page.close())
  await openDashboard(page, nvr.url, ADMIN_TOKEN)
  const actions = page.getByRole('group', { name: 'Set the device\'s health' })
  await actions.getByRole('button', { name: 'Slow (1 s an answer)' }).click()
  await page.locator('#health-state[data-state="slow"]').waitFor()
  t.match(await healthOverHttp(), { state: 'slow', latency: 1000 })
  await actions.getByRole('button', { name: 'Online' }).click()
  await page.locator('#health-state[data-state="online"]').waitFor()
  t.match(await healthOverHttp(), { state: 'online' })

  // On the manual clock nothing could move the clock while the port its admin API shares is closed: refused.
  const refused = page.waitForResponse(response => response.url().endsWith('/__admin/health') && response.request().method() === 'PUT')
  await actions.getByRole('button', { name: 'Offline for 10 s' }).click()
  t.equal((await refused).status(), 409)
  await page.getByText(/The device cannot go offline here: the clock is manual/).waitFor()
  t.match(await healthOverHttp(), { state: 'online', listening: true }, 'the device stays online, its admin API reachable')
})

t.test('with nothing scheduled and no change yet, the timeline says so in words, not as the first item of a list', async t => {
  const quiet = await startMockNvr({ port: 0, adminToken: ADMIN_TOKEN, clock: 'manual' })
  const page = await browser.context.newPage()
  t.teardown(async () => {
    await page.close()
    await quiet.close()
  })
  await openDashboard(page, quiet.url, ADMIN_TOKEN)
  const panel = page.getByRole('region', { name: 'Health' })
  for (const text of ['Nothing scheduled.', 'No change yet.']) {
    const said = panel.getByText(text, { exact: true })
    await said.waitFor()
    t.equal(await said.evaluate(element => element.closest('ol, ul, li') === null && getComputedStyle(element).display !== 'list-item'), true, `"${text}" is no list's item`)
  }
  t.equal(await panel.locator('li:visible').count(), 0, 'no list item shows')
  t.notOk(await panel.getByRole('list', { name: 'Coming next' }).isVisible(), 'no list of what comes next')

  // Once something is scheduled, it is listed.
  const slow = await fetch(`${quiet.url}/__admin/health`, { method: 'PUT', headers: { ...ADMIN, 'content-type': 'application/json' }, body: '{"state":"slow","latency":10,"for":60000}' })
  t.equal(slow.status, 200)
  await panel.getByRole('list', { name: 'Coming next' }).getByText('online').waitFor()
  t.notOk(await panel.getByText('Nothing scheduled.').isVisible())
  await panel.getByRole('list', { name: 'Recent changes' }).getByText('health: slow (command)').waitFor()
  t.notOk(await panel.getByText('No change yet.').isVisible())
})
