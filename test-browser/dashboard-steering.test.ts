import { connect, type Socket } from 'node:net'
import type { Page } from 'playwright-core'
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

/**
 * Holds one of mock-nvr's streams of the journal open, on a socket of its own (fetch's body.cancel() would
 * leave its pool a spare connection that holds mock-nvr's close until the headers time-out).
 */
function openStream (url: string): Promise<Socket> {
  const { hostname, port } = new URL(url)
  return new Promise(resolve => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`GET /__admin/requests/stream HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n\r\n`)
    })
    socket.once('data', () => resolve(socket))
  })
}

const browser = await launchChromium()
const hosts = await recordHosts(browser.context)
const nvr = await startMockNvr({ tokens: [TOKEN], adminToken: ADMIN_TOKEN })
/** How many cameras the start-up data (the bundled fixtures) has. */
const startUp = nvr.data().cameras?.length ?? 0
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
  const lines = [
    line('polygon', 'POLYGON((1 1, 2 2))'),
    line('drawn', '0.1,0.1;0.5,0.5;0.9,0.1'),
    line('outside', '0.1,0.1;1.5,0.5'),
    { ...line('edge', '0,0;1,1'), class: '', anchor: '' }
  ]
  await page.getByLabel('Upload a fixture file').setInputFiles(json({ counting_lines: lines }))
  const camera = page.locator('.camera')
  await camera.filter({ hasText: 'cam-a' }).waitFor()
  t.equal(await camera.count(), 1)
  t.strictSame(await camera.locator('polyline').evaluateAll(drawn => drawn.map(line => line.getAttribute('points'))),
    ['16,9 80,45 144,9', '0,0 160,90'], 'only the lines in points within 0–1 are drawn')
  t.equal(await camera.locator('svg.frame').getAttribute('aria-label'), 'Frame of cam-a (fractions 0–1) with 2 of its 4 lines drawn')
  const item = (id: string) => camera.locator('.lines li').filter({ hasText: `Line ${id}` })
  t.match(await item('polygon').innerText(), /POLYGON\(\(1 1, 2 2\)\)\s+not drawn/, 'a line in another form is listed with its geometry as text')
  t.match(await item('outside').innerText(), /0\.1,0\.1;1\.5,0\.5\s+not drawn/, 'so is a line with a point outside 0–1')
  t.match(await item('drawn').innerText(), /Line drawn drawn\s+class person · anchor center/)
  t.match(await item('edge').innerText(), /^Line edge edge\n/, 'no class or anchor is named when the data leaves them empty')
  t.strictSame(await camera.locator('.lines .swatch').evaluateAll(swatches => swatches.map(swatch => swatch.classList[1])),
    ['not-drawn-swatch', 'c0', 'not-drawn-swatch', 'c1'], 'the colours go to the lines drawn, in turn')
  t.match(await page.locator('#data-summary').innerText(), 'Now serving site.json: 1 camera, 4 counting lines.')

  await page.getByLabel('Upload a fixture file').setInputFiles(json({ counting_lines: [{ ...line('bad', '0,0;1,1'), max_age: 'long' }], colour: 1 }))
  const problems = page.locator('#data-problems li')
  await problems.first().waitFor()
  t.strictSame(await problems.allInnerTexts(), ['/colour: is not a known field', '/counting_lines/0/max_age: must be a whole number, not "long"'])
  t.match(await page.locator('#data-problems').innerText(), 'site.json was not served, nothing changed:')
  t.equal(await camera.count(), 1, 'nothing changed')

  await page.getByLabel('Upload a fixture file').setInputFiles({ name: 'empty.json', mimeType: 'application/json', buffer: Buffer.alloc(0) })
  await page.locator('#data-problems', { hasText: 'empty.json was not served' }).waitFor()
  t.strictSame(await problems.allInnerTexts(), ['The file is empty.'])

  await page.getByRole('button', { name: 'Reset to the start-up data' }).click()
  await camera.nth(startUp - 1).waitFor()
  t.equal(await camera.count(), startUp, 'the start-up data again')
  t.equal(await problems.count(), 0, 'the problems are gone')
})

t.test('the problems shown are the answer\'s own, one per JSON path, even where a message holds "; " or ": "', async t => {
  const page = await browser.context.newPage()
  t.teardown(() => page.close())
  await openDashboard(page, nvr.url, ADMIN_TOKEN)
  const file = { name: 'odd.json', mimeType: 'application/json', buffer: Buffer.from('{"__proto__": {"polluted": 1}, "x": {"constructor": {"prototype": 2}}}') }
  await page.getByLabel('Upload a fixture file').setInputFiles(file)
  const problems = page.locator('#data-problems li')
  await problems.first().waitFor()
  const refused = 'is a key mock-nvr refuses, as it could change what every object inherits; leave it out'
  t.strictSame(await problems.allInnerTexts(), [`/__proto__: ${refused}`, `/x/constructor/prototype: ${refused}`])
  t.strictSame(await problems.locator('code').allInnerTexts(), ['/__proto__', '/x/constructor/prototype'], 'each path set apart')

  t.equal(await page.locator('.camera').count(), startUp, 'nothing changed')
})

t.test('the requests can be filtered by status class and camera, and paused', async t => {
  const page = await browser.context.newPage()
  t.teardown(() => page.close())
  await openDashboard(page, nvr.url, ADMIN_TOKEN)
  await fetch(`${nvr.url}/nvr/v1/cameras/cam-security-exit/counting_lines`, { headers: API })
  await fetch(`${nvr.url}/nvr/v1/cameras/cam-missing/counting_lines`, { headers: API })
  const rows = page.locator('#requests-table tbody tr')
  await rows.filter({ hasText: 'cam-missing' }).waitFor()

  await page.getByLabel('Status class').selectOption('4')
  t.ok((await rows.locator('.status').allInnerTexts()).every(status => status.startsWith('4')), 'only 4xx answers')
  t.ok(await rows.filter({ hasText: 'cam-missing' }).count() > 0)
  await page.getByLabel('Status class').selectOption('')
  await page.getByLabel('Camera of the request').fill('cam-security-exit')
  t.ok((await rows.allInnerTexts()).every(row => row.includes('cam-security-exit')), 'only the camera asked for')

  await page.getByRole('button', { name: 'Pause' }).click()
  await fetch(`${nvr.url}/nvr/v1/cameras/cam-security-exit/counting_lines?while=paused`, { headers: API })
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
  const fault = nvr.injectFault({ drop: true, camera: 'cam-security-exit', route: 'list' })
  const item = page.locator(`#fault-list [data-fault="${fault.id}"]`)
  await item.waitFor()
  t.match(await item.innerText(), /dropped connection for list requests of camera cam-security-exit · until cleared/)
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

  // What the form holds goes to mock-nvr as typed, never read as something else, and each problem is named.
  const refusedWith = async (problems: string[]) => {
    await page.getByRole('button', { name: 'Inject' }).click()
    await page.locator('#fault-problems li', { hasText: problems[0] }).waitFor()
    t.strictSame(await page.locator('#fault-problems li').allInnerTexts(), problems)
    t.strictSame(nvr.faults(), [], 'nothing was injected')
  }
  await page.getByLabel('Delay, ms').fill('100-800-900')
  await refusedWith(['/delay: must be milliseconds from 0 to 300000, or { "min": …, "max": … } for a random delay in that range, not "100-800-900"'])
  await page.getByLabel('Delay, ms').fill('')
  await page.getByLabel('Answer').selectOption('status')
  await page.getByLabel('Status', { exact: true }).fill('200')
  await page.getByLabel('How many requests').fill('1.5')
  await refusedWith(['/status: must be a whole number from 400 to 599, not 200', '/times: must be a whole number from 1 to 1000000, not 1.5'])
  await page.getByLabel('Status', { exact: true }).fill('503')
  await page.getByLabel('How many requests').fill('0x10')
  await refusedWith(['/times: must be a whole number from 1 to 1000000, not "0x10"'])
})

t.test('the token form works from the keyboard, and the page fits a phone', async t => {
  const page = await browser.context.newPage()
  t.teardown(() => page.close())
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto(`${nvr.url}${DASHBOARD_PATH}`)
  await page.keyboard.type(ADMIN_TOKEN)
  await page.keyboard.press('Enter')
  await page.locator('#connection[data-state="live"]').waitFor()
  await fetch(`${nvr.url}/nvr/v1/cameras/cam-security-exit/counting_lines`, { headers: API })
  await page.locator('#requests-table tbody tr').first().waitFor()
  t.equal(await page.evaluate('document.documentElement.scrollWidth'), 390, 'nothing is wider than the screen')
  await page.getByRole('link', { name: 'Requests' }).click()
  await page.waitForFunction('document.querySelector("#requests").getBoundingClientRect().top < 300')
  const [headerBottom, headingTop] = await page.evaluate('[document.querySelector(".top").getBoundingClientRect().bottom, document.querySelector("#requests-heading").getBoundingClientRect().top]') as number[]
  t.ok(headingTop! >= headerBottom!, `a section reached by its link starts below the sticky header (${headingTop} ≥ ${headerBottom})`)
})

t.test('when mock-nvr refuses the live requests, or goes away, the page retries, then says which', async t => {
  const gone = await startMockNvr({ tokens: [TOKEN], adminToken: ADMIN_TOKEN })
  const page = await browser.context.newPage()
  t.teardown(() => page.close())
  // The page's clock: each pause between quick retries is skipped once the page has begun it, not waited out.
  await page.clock.install()
  // Every place for a stream of the journal is taken: mock-nvr answers, but refuses the page's stream.
  const streams = await Promise.all(Array.from({ length: 8 }, () => openStream(gone.url)))
  await page.goto(`${gone.url}${DASHBOARD_PATH}`)
  await page.getByRole('textbox', { name: 'Admin token' }).fill(ADMIN_TOKEN)
  await page.getByRole('button', { name: 'Open the dashboard' }).click()
  await skipQuickRetries(page)
  await page.locator('#connection[data-state="offline"]').waitFor({ timeout: 30_000 })
  t.equal(await page.locator('#connection').innerText(), 'Live requests refused')
  t.match(await page.locator('#offline').innerText(),
    /mock-nvr at 127\.0\.0\.1:\d+ refuses the live requests: 8 streams of the journal are open already; close one first\./)
  for (const stream of streams) stream.destroy()
  await page.getByRole('button', { name: 'Retry now' }).click()
  // The page tries again every 10 seconds too, whether or not mock-nvr had let the streams go at the click.
  await page.locator('#connection[data-state="live"]').waitFor({ timeout: 30_000 })
  t.ok(await page.locator('#offline').isHidden())

  await gone.close()
  await page.locator('#connection[data-state="reconnecting"]').waitFor()
  await skipQuickRetries(page)
  await page.locator('#connection[data-state="offline"]').waitFor({ timeout: 30_000 })
  t.match(await page.locator('#offline').innerText(), /mock-nvr at 127\.0\.0\.1:\d+ is not answering/)
  t.ok(await page.getByRole('button', { name: 'Retry now' }).isVisible())
})

/** Moves the page's clock past the pause after each of its three quick retries, once the page has begun it. */
async function skipQuickRetries (page: Page): Promise<void> {
  for (let retry = 1; retry <= 3; retry++) {
    await page.locator('#connection[data-state="reconnecting"]', { hasText: `Reconnecting (${retry} of 3)` }).waitFor()
    await page.clock.fastForward(retry * 1000)
  }
}

t.test('no request of the page left 127.0.0.1', async t => {
  t.strictSame([...new Set(hosts)], ['127.0.0.1'])
})
