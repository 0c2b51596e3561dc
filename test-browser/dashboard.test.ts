import t from 'tap'
import { startMockNvr } from '../src/index.js'
import type { CountingLine } from '../src/types.js'
import { launchChromium } from './chromium.js'
import { DASHBOARD_PATH, openDashboard, recordHosts, waitUntilLive } from './dashboard-actions.js'

const TOKEN = 'browser-token'
const ADMIN_TOKEN = 'browser-admin-token'
const API = { authorization: `Bearer ${TOKEN}` }

const browser = await launchChromium()
const hosts = await recordHosts(browser.context)
const nvr = await startMockNvr({ tokens: [TOKEN], adminToken: ADMIN_TOKEN })
t.teardown(async () => {
  await browser.close()
  await nvr.close()
})

t.test('with the admin token, the page shows the demo cameras with their lines drawn, and keeps the token on reload', async t => {
  const page = await browser.context.newPage()
  t.teardown(() => page.close())
  await openDashboard(page, nvr.url, ADMIN_TOKEN)
  const cameras = page.locator('.camera')
  const served = nvr.data()
  t.strictSame(await cameras.locator('h3 code').allInnerTexts(), served.cameras?.map(camera => camera.id))
  const firstLine = served.counting_lines?.[0] as CountingLine
  const linesOfFirst = served.counting_lines?.filter(line => line.camera_id === firstLine.camera_id) ?? []
  const first = cameras.filter({ has: page.locator('h3 code', { hasText: new RegExp(`^${firstLine.camera_id}$`) }) })
  t.equal(await first.locator('svg.frame polyline').count(), linesOfFirst.length, 'each line of the camera is drawn')
  t.equal(await first.locator('svg.frame circle.anchor').count(), linesOfFirst.length, 'with its anchor')
  t.equal(await first.locator('svg.frame .in-mark').count(), linesOfFirst.length, 'and its IN side')
  t.strictSame(await first.locator('svg.frame > g > text').allTextContents(), linesOfFirst.map(line => line.name))
  t.equal(await first.locator('svg.frame').getAttribute('data-frame'), '1920×1080', 'the bundled data is in a 1080p frame')
  t.equal(await first.locator('.lines li').first().innerText(),
    `${firstLine.name} ${firstLine.id} class ${firstLine.class} · anchor ${firstLine.anchor}\n${firstLine.counting_line}`)
  t.equal(await page.locator('.not-drawn').count(), 0, 'every bundled line is drawn')

  const last = served.cameras?.at(-1)?.id as string
  await page.getByLabel('Camera id').fill(last)
  t.strictSame(await cameras.locator('h3 code').allInnerTexts(), [last], 'the filter keeps the matching cameras')

  await page.reload()
  await waitUntilLive(page)
  t.ok(await page.locator('#token-panel').isHidden(), 'a reload does not ask for the token again')
  t.equal(await page.evaluate('sessionStorage.getItem("mock-nvr-admin-token")'), ADMIN_TOKEN, 'the tab keeps it in sessionStorage')
  t.equal(await page.evaluate('[localStorage.length, document.cookie, location.href.includes("token")].join()'), '0,,false',
    'the token is not in localStorage, a cookie or the URL')
})

t.test('a request made from outside appears in the journal, pushed by the event stream', async t => {
  const page = await browser.context.newPage()
  t.teardown(() => page.close())
  await openDashboard(page, nvr.url, ADMIN_TOKEN)
  const path = '/nvr/v1/cameras/cam-security-exit/counting_lines'
  t.equal((await fetch(`${nvr.url}${path}?seen=outside`, { headers: API })).status, 200)
  const row = page.locator('#requests-table tbody tr').filter({ hasText: path }).first()
  await row.waitFor()
  t.match(await row.innerText(), /GET\s+\/nvr\/v1\/cameras\/cam-security-exit\/counting_lines\s+200\s+cam-security-exit/)
  t.ok(await row.locator('.status-2xx').isVisible(), 'the status is coloured by its class')
})

t.test('a 503 for one request, injected from the page, fails the next API answer and then disappears', async t => {
  const page = await browser.context.newPage()
  t.teardown(async () => {
    await page.close()
    nvr.reset()
  })
  await openDashboard(page, nvr.url, ADMIN_TOKEN)
  await page.getByLabel('Answer').selectOption('status')
  await page.getByLabel('Status', { exact: true }).fill('503')
  await page.getByLabel('How many requests').fill('1')
  await page.getByRole('button', { name: 'Inject' }).click()
  const fault = page.locator('#fault-list .fault')
  await fault.waitFor()
  t.match(await fault.innerText(), /fault-1\s+status 503 for every API request · 1 more request/)

  const answer = await fetch(`${nvr.url}/nvr/v1/cameras/cam-security-exit/counting_lines`, { headers: API })
  t.equal(answer.status, 503)
  const row = page.locator('#requests-table tbody tr').filter({ hasText: 'fault-1' })
  await row.waitFor()
  t.match(await row.innerText(), /503/)
  await fault.waitFor({ state: 'detached' })
  t.match(await page.locator('#fault-list').innerText(), 'No fault is in force')

  await page.getByRole('button', { name: 'Reset everything' }).click()
  await page.locator('#requests-note', { hasText: /^0 requests\.$/ }).waitFor()
  t.equal(await page.locator('#requests-table tbody tr').count(), 0, 'the journal emptied by the reset is emptied on the page too')
})

t.test('a wrong token shows the error state and asks again', async t => {
  const page = await browser.context.newPage()
  t.teardown(() => page.close())
  await page.goto(`${nvr.url}${DASHBOARD_PATH}`)
  await page.getByRole('textbox', { name: 'Admin token' }).fill('not-the-admin-token')
  await page.getByRole('button', { name: 'Open the dashboard' }).click()
  await page.locator('#connection[data-state="refused"]').waitFor()
  t.match(await page.locator('#token-error').innerText(), 'The admin token was not accepted')
  t.ok(await page.getByRole('textbox', { name: 'Admin token' }).isVisible())
  t.ok(await page.locator('#dashboard').isHidden(), 'nothing of the dashboard shows')
})

t.test('before the admin token the section links say why they wait, and lead to the token field; then they work', async t => {
  const page = await browser.context.newPage()
  t.teardown(() => page.close())
  await page.goto(`${nvr.url}${DASHBOARD_PATH}`)
  const nav = page.getByRole('navigation', { name: 'Sections' })
  const requests = nav.getByRole('link', { name: 'Requests' })
  await page.getByRole('textbox', { name: 'Admin token' }).waitFor()
  t.equal(await requests.getAttribute('aria-disabled'), 'true', 'the link is marked disabled')
  t.ok(await nav.getByText('after the admin token').isVisible(), 'the reason is shown beside the links')
  await page.getByRole('textbox', { name: 'Admin token' }).blur()
  // Forced: Playwright will not click a link marked disabled, but a person can.
  await requests.click({ force: true })
  t.equal(new URL(page.url()).hash, '', 'the page does not jump to a hidden section')
  t.ok(await page.getByRole('textbox', { name: 'Admin token' }).evaluate(input => input === document.activeElement), 'the token field has the focus')

  await page.getByRole('textbox', { name: 'Admin token' }).fill(ADMIN_TOKEN)
  await page.getByRole('button', { name: 'Open the dashboard' }).click()
  await waitUntilLive(page)
  t.equal(await requests.getAttribute('aria-disabled'), null, 'the link is enabled')
  t.ok(await nav.getByText('after the admin token').isHidden(), 'the reason is gone')
  await nav.getByRole('link', { name: 'Faults' }).click()
  t.equal(new URL(page.url()).hash, '#faults', 'the link leads to its section')
})

t.test('no request of the page left 127.0.0.1', async t => {
  t.ok(hosts.length > 0)
  t.strictSame([...new Set(hosts)], ['127.0.0.1'])
})
