import t from 'tap'
import { startMockNvr } from '../src/index.js'
import { launchChromium } from './chromium.js'
import { DASHBOARD_PATH, openDashboard, recordHosts } from './dashboard-actions.js'

const TOKEN = 'browser-token'
const ADMIN_TOKEN = 'browser-admin-token'
const API = { authorization: `Bearer ${TOKEN}` }
const json = (value: unknown) => ({ name: 'site.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(value)) })
const line = (id: string, geometry: string) => ({
  id,
  camera_id: 'cam-a',
  name: `Line ${id}`,
  counting_line: geometry,
  anchor: 'center',
  coalesce_entries: true,
  class: 'person',
  max_age: 30,
  created: '2024-05-01T08:30:00.000Z',
  updated: '2024-05-01T08:30:00.000Z'
})

const browser = await launchChromium()
const hosts = await recordHosts(browser.context)
const nvr = await startMockNvr({ tokens: [TOKEN], adminToken: ADMIN_TOKEN })
t.teardown(async () => {
  await browser.close()
  await nvr.close()
})

t.test('a fixture file uploaded is served and drawn; geometry in another form is listed; a bad one names each JSON path; reset goes back', async t => {
  const page = await browser.context.newPage()
  t.teardown(async () => {
    await page.close()
    nvr.reset()
  })
  await openDashboard(page, nvr.url, ADMIN_TOKEN)
  await page.getByLabel('Upload a fixture file').setInputFiles(json({ counting_lines: [line('drawn', '0.1,0.1;0.5,0.5;0.9,0.1'), line('polygon', 'POLYGON((1 1, 2 2))')] }))
  const camera = page.locator('.camera')
  await camera.filter({ hasText: 'cam-a' }).waitFor()
  t.equal(await camera.count(), 1)
  t.equal(await camera.locator('polyline').count(), 1, 'only the line in points is drawn')
  t.equal(await camera.locator('polyline').getAttribute('points'), '16,9 80,45 144,9')
  const listed = camera.locator('.lines li').filter({ hasText: 'Line polygon' })
  t.match(await listed.innerText(), /POLYGON\(\(1 1, 2 2\)\)\s+not drawn/, 'the other line is listed with its geometry as text')
  t.match(await page.locator('#data-summary').innerText(), 'Now serving site.json: 1 camera, 2 counting lines.')

  await page.getByLabel('Upload a fixture file').setInputFiles(json({ counting_lines: [{ ...line('bad', '0,0;1,1'), max_age: 'long' }], colour: 1 }))
  const problems = page.locator('#data-problems li')
  await problems.first().waitFor()
  t.strictSame(await problems.allInnerTexts(), ['/colour: is not a known field', '/counting_lines/0/max_age: must be an integer'])
  t.equal(await camera.count(), 1, 'nothing changed')

  await page.getByRole('button', { name: 'Reset to the start-up data' }).click()
  await camera.nth(5).waitFor()
  t.equal(await camera.count(), 6, 'the start-up data again')
  t.equal(await problems.count(), 0, 'the problems are gone')
})

t.test('the requests can be filtered by status class and camera, and paused', async t => {
  const page = await browser.context.newPage()
  t.teardown(() => page.close())
  await openDashboard(page, nvr.url, ADMIN_TOKEN)
  await fetch(`${nvr.url}/nvr/v1/cameras/cam-lobby/counting_lines`, { headers: API })
  await fetch(`${nvr.url}/nvr/v1/cameras/cam-missing/counting_lines`, { headers: API })
  const rows = page.locator('#requests-table tbody tr')
  await rows.filter({ hasText: 'cam-missing' }).waitFor()

  await page.getByLabel('Status class').selectOption('4')
  t.ok((await rows.locator('.status').allInnerTexts()).every(status => status.startsWith('4')), 'only 4xx answers')
  t.ok(await rows.filter({ hasText: 'cam-missing' }).count() > 0)
  await page.getByLabel('Status class').selectOption('')
  await page.getByLabel('Camera of the request').fill('cam-lobby')
  t.ok((await rows.allInnerTexts()).every(row => row.includes('cam-lobby')), 'only the camera asked for')

  await page.getByRole('button', { name: 'Pause' }).click()
  await fetch(`${nvr.url}/nvr/v1/cameras/cam-lobby/counting_lines?while=paused`, { headers: API })
  await page.locator('#requests-note', { hasText: 'Paused: 1 new request waiting' }).waitFor()
  t.equal(await rows.filter({ has: page.locator('code[title$="while=paused"]') }).count(), 0, 'not shown while paused')
  await page.getByRole('button', { name: 'Resume' }).click()
  t.equal(await rows.filter({ has: page.locator('code[title$="while=paused"]') }).count(), 1, 'shown on resume')
})

t.test('faults changed elsewhere show up, and clearing one from the page clears it in mock-nvr', async t => {
  const page = await browser.context.newPage()
  t.teardown(async () => {
    await page.close()
    nvr.reset()
  })
  await openDashboard(page, nvr.url, ADMIN_TOKEN)
  const fault = nvr.injectFault({ drop: true, camera: 'cam-lobby', route: 'list' })
  const item = page.locator(`#fault-list [data-fault="${fault.id}"]`)
  await item.waitFor()
  t.match(await item.innerText(), /dropped connection for list requests of camera cam-lobby · until cleared/)
  await page.getByRole('button', { name: `Clear ${fault.id}` }).click()
  await item.waitFor({ state: 'detached' })
  t.strictSame(nvr.faults(), [])

  await page.getByLabel('Answer').selectOption('delay')
  t.ok(await page.getByLabel('Status', { exact: true }).isDisabled(), 'a status only goes with that answer')
  await page.getByLabel('Delay, ms').fill('300-100')
  await page.getByRole('button', { name: 'Inject' }).click()
  await page.locator('#fault-problems li').waitFor()
  t.match(await page.locator('#fault-problems').innerText(), '/delay: must go from low to high, not from 300 to 100')
  t.strictSame(nvr.faults(), [])
})

t.test('the token form works from the keyboard, and the page fits a phone', async t => {
  const page = await browser.context.newPage()
  t.teardown(() => page.close())
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto(`${nvr.url}${DASHBOARD_PATH}`)
  await page.keyboard.type(ADMIN_TOKEN)
  await page.keyboard.press('Enter')
  await page.locator('#connection[data-state="live"]').waitFor()
  await fetch(`${nvr.url}/nvr/v1/cameras/cam-lobby/counting_lines`, { headers: API })
  await page.locator('#requests-table tbody tr').first().waitFor()
  t.equal(await page.evaluate('document.documentElement.scrollWidth'), 390, 'nothing is wider than the screen')
})

t.test('when mock-nvr goes away, the page retries, then says so', async t => {
  const gone = await startMockNvr({ tokens: [TOKEN], adminToken: ADMIN_TOKEN })
  const page = await browser.context.newPage()
  t.teardown(() => page.close())
  // The page's clock: each pause between retries is skipped once the page has begun it, not waited out.
  await page.clock.install()
  await openDashboard(page, gone.url, ADMIN_TOKEN)
  await gone.close()
  await page.locator('#connection[data-state="reconnecting"]').waitFor()
  for (let retry = 1; retry <= 3; retry++) {
    await page.locator('#connection[data-state="reconnecting"]', { hasText: `Reconnecting (${retry} of 3)` }).waitFor()
    await page.clock.fastForward(retry * 1000)
  }
  await page.locator('#connection[data-state="offline"]').waitFor({ timeout: 30_000 })
  t.match(await page.locator('#offline').innerText(), /mock-nvr at 127\.0\.0\.1:\d+ is not answering/)
  t.ok(await page.getByRole('button', { name: 'Retry now' }).isVisible())
})

t.test('no request of the page left 127.0.0.1', async t => {
  t.strictSame([...new Set(hosts)], ['127.0.0.1'])
})
