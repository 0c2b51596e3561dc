import { join } from 'node:path'
import t from 'tap'
import { startMockNvr } from '../src/index.js'
import { runTargetCommand } from '../src/cli/target-commands.js'
import type { CountingLine, FixtureData } from '../src/types.js'
import { launchChromium } from './chromium.js'
import { openDashboard, recordHosts } from './dashboard-actions.js'

const ADMIN_TOKEN = 'geometry-admin-token'
// The frame is drawn 160 × 90 units wide: a point (x, y) of a W × H frame is at (x × 160 / W, y × 90 / H).
const line = (camera: string, id: string, geometry: string, anchor: string): CountingLine => ({
  id,
  camera_id: camera,
  name: `Line ${id}`,
  counting_line: geometry,
  anchor,
  coalesce_entries: true,
  class: 'person',
  max_age: 30,
  created: '2024-05-01T08:30:00.000Z',
  updated: '2024-05-01T08:30:00.000Z'
})
const DATA: FixtureData = {
  counting_lines: [
    line('cam-720p', 'across', 'LINESTRING(128 360, 1152 360)', 'POINT(640 240)'),
    line('cam-1080p', 'bent', 'LINESTRING(192 540, 960 270, 1728 540)', 'POINT(960 800)'),
    line('cam-1080p', 'edge', 'LINESTRING(0 0, 1920 1080)', 'POINT(1900 10)'),
    line('cam-1440p', 'short', 'LINESTRING(0 0, 960 540)', 'POINT(2000 100)'),
    line('cam-2160p', 'long', 'LINESTRING(100 100, 3840 2160)', 'POINT(3000 100)'),
    line('cam-fractions', 'normalized', '0.1,0.5;0.9,0.5', 'bottom_center'),
    line('cam-fractions', 'anchor-on-it', 'LINESTRING(0 0, 1000 0)', 'POINT(500 0)'),
    line('cam-listed', 'polygon', 'POLYGON((1 1, 2 2, 1 2, 1 1))', 'POINT(1 1)'),
    line('cam-listed', 'too-far', 'LINESTRING(0 0, 5000 10)', 'POINT(1 1)'),
    line('cam-listed', 'three-d', 'LINESTRING(1 2 3, 4 5 6)', 'POINT(1 1)'),
    line('cam-listed', 'outside-0-1', '0.1,0.1;1.5,0.5', 'center')
  ]
}

const browser = await launchChromium()
const hosts = await recordHosts(browser.context)
const nvr = await startMockNvr({ data: DATA, adminToken: ADMIN_TOKEN })
const page = await browser.context.newPage()
t.teardown(async () => {
  await browser.close()
  await nvr.close()
})
await openDashboard(page, nvr.url, ADMIN_TOKEN)
const camera = (id: string) => page.locator('.camera').filter({ has: page.locator('h3 code', { hasText: new RegExp(`^${id}$`) }) })
const polylines = (id: string) => camera(id).locator('polyline').evaluateAll(drawn => drawn.map(one => one.getAttribute('points')))
const frameOf = (id: string) => camera(id).locator('svg.frame').getAttribute('data-frame')
const item = (id: string) => page.locator('.lines li').filter({ hasText: `Line ${id} ` })

t.test('WKT lines are drawn in the smallest common frame that holds every point of the camera, anchors too', async t => {
  t.equal(await frameOf('cam-720p'), '1280×720')
  t.strictSame(await polylines('cam-720p'), ['16,45 144,45'])
  t.equal(await frameOf('cam-1080p'), '1920×1080', 'a point on the frame\'s edge fits it')
  t.strictSame(await polylines('cam-1080p'), ['16,45 80,22.5 144,45', '0,0 160,90'])
  t.equal(await frameOf('cam-1440p'), '2560×1440', 'the anchor beyond 1920 picks the next frame')
  t.strictSame(await polylines('cam-1440p'), ['0,0 60,33.75'])
  t.equal(await frameOf('cam-2160p'), '3840×2160')
  t.strictSame(await polylines('cam-2160p'), ['4.17,4.17 160,90'])
  t.match(await camera('cam-720p').locator('h3').innerText(), /cam-720p 1 line 1280×720/, 'the frame size is named')
  t.equal(await camera('cam-2160p').locator('svg.frame').getAttribute('aria-label'), 'Frame of cam-2160p (3840×2160) with 1 of its lines drawn')
})

t.test('each anchor is drawn, and an arrow labelled IN points from the line to the anchor\'s side', async t => {
  const anchors = await camera('cam-1080p').locator('circle.anchor').evaluateAll(drawn => drawn.map(one => [one.getAttribute('cx'), one.getAttribute('cy')]))
  t.strictSame(anchors, [['80', '66.67'], ['158.33', '0.83']])
  // Above the line in a 720p frame: the arrow goes up from the middle of the line.
  const arrow = camera('cam-720p').locator('.in-mark line')
  t.strictSame(await arrow.evaluate(one => ['x1', 'y1', 'x2', 'y2'].map(name => one.getAttribute(name))), ['80', '45', '80', '36'])
  t.strictSame(await camera('cam-720p').locator('.in-mark text').allTextContents(), ['IN'])
  // Below a bent line: from the middle of the segment nearest the anchor, down and square to it.
  const [x1, y1, x2, y2] = (await camera('cam-1080p').locator('.in-mark line').first()
    .evaluate(one => ['x1', 'y1', 'x2', 'y2'].map(name => Number(one.getAttribute(name))))) as [number, number, number, number]
  t.ok(y2 > y1 && x2 > x1, 'the bent line\'s IN arrow points down, square to its segment')
  t.equal(await camera('cam-1080p').locator('.in-mark').count(), 2)
  t.equal(await page.locator('.unmarked').count(), 2, 'every other drawn line has its IN side marked')
})

t.test('the normalized x,y;x,y form is still drawn, in 0–1 of the frame; an anchor that is no point marks no side', async t => {
  t.equal(await frameOf('cam-fractions'), '1280×720', 'the pixel line of the same camera names the frame')
  t.strictSame(await polylines('cam-fractions'), ['16,45 144,45', '0,0 125,0'])
  t.match(await item('normalized').innerText(), /0\.1,0\.5;0\.9,0\.5 IN side not marked: anchor is not a WKT POINT\(x y\)/)
  t.match(await item('anchor-on-it').innerText(), /IN side not marked: the anchor lies on the line/)
  t.equal(await camera('cam-fractions').locator('.in-mark').count(), 0)
})

t.test('any other text is listed, not drawn, and the page says why', async t => {
  t.equal(await camera('cam-listed').locator('polyline').count(), 0)
  t.equal(await frameOf('cam-listed'), 'none')
  t.equal(await camera('cam-listed').locator('svg.frame').getAttribute('aria-label'), 'Frame of cam-listed with 0 of its 4 lines drawn')
  t.match(await item('polygon').innerText(), /POLYGON\(\(1 1, 2 2, 1 2, 1 1\)\) not drawn: counting_line is neither WKT LINESTRING nor x,y;x,y pairs/)
  t.match(await item('too-far').innerText(), /not drawn: a point lies outside the largest frame, 3840×2160/)
  t.match(await item('three-d').innerText(), /not drawn: the LINESTRING does not hold x y points \(two numbers each\)/)
  t.match(await item('outside-0-1').innerText(), /not drawn: x,y pairs must lie in 0–1/)
})

t.test('the geometry module reads the forms on its own', async t => {
  const results = await page.evaluate(async () => {
    // Its own URL, as the page loads it: the module holds no state and touches no DOM.
    const geometry = await import(new URL('geometry.js', location.href).href)
    return {
      lowercase: geometry.readLine('linestring (1.5 2, 3e2 4)'),
      single: geometry.readLine('LINESTRING(1 2)'),
      singlePair: geometry.readLine('0.5,0.5'),
      notText: geometry.readLine(7),
      anchor: geometry.readAnchor(' point( 3 4 ) '),
      anchorFar: geometry.readAnchor('POINT(4000 1)'),
      anchorNegative: geometry.readAnchor('POINT(-1 1)'),
      anchorNotText: geometry.readAnchor(null),
      frame: geometry.frameFor([[1281, 10]]),
      inLine: geometry.inSide([[0, 0], [10, 0]], [20, 0]),
      degenerate: geometry.inSide([[5, 5], [5, 5]], [6, 6]),
      right: geometry.inSide([[0, 0], [0, 10]], [3, 5])
    }
  })
  t.strictSame(results, {
    lowercase: { pixels: [[1.5, 2], [300, 4]] },
    single: { reason: 'a LINESTRING needs two points or more' },
    singlePair: { reason: 'x,y pairs need two points or more' },
    notText: { reason: 'counting_line is not text' },
    anchor: { pixel: [3, 4] },
    anchorFar: { reason: 'anchor lies outside the largest frame, 3840×2160' },
    anchorNegative: { reason: 'anchor lies outside the largest frame, 3840×2160' },
    anchorNotText: { reason: 'anchor is not a WKT POINT(x y)' },
    frame: [1920, 1080],
    inLine: null,
    degenerate: null,
    right: { from: [0, 5], towards: [1, 0] }
  })
})

t.test('a target recorded with WKT lines is drawn by the dashboard of the mock serving the recording', async t => {
  const target = await startMockNvr({ data: { counting_lines: DATA.counting_lines?.slice(0, 3) }, tokens: ['target-token'] })
  t.teardown(() => target.close())
  const file = join(t.testdir({}), 'target.json')
  const quiet = { write: () => true }
  const code = await runTargetCommand('record', ['--target', target.url, '--token', 'target-token', '--camera', 'cam-720p', '--camera', 'cam-1080p', '--out', file],
    { stdout: quiet, stderr: quiet })
  t.equal(code, 0, 'mock-nvr record wrote the file')
  const replay = await startMockNvr({ fixtures: file, adminToken: ADMIN_TOKEN })
  t.teardown(() => replay.close())
  const replayed = await browser.context.newPage()
  t.teardown(() => replayed.close())
  await openDashboard(replayed, replay.url, ADMIN_TOKEN)
  const frames = await replayed.locator('svg.frame').evaluateAll(drawn => drawn.map(frame => [
    frame.getAttribute('data-frame'), frame.querySelectorAll('polyline').length, frame.querySelectorAll('circle.anchor').length, frame.querySelectorAll('.in-mark').length
  ]))
  t.strictSame(frames, [['1280×720', 1, 1, 1], ['1920×1080', 2, 2, 2]], 'each recorded line is drawn with its anchor and IN side')
  t.equal(await replayed.locator('.not-drawn').count(), 0)
})

t.test('no request of the pages left 127.0.0.1', async t => {
  t.strictSame([...new Set(hosts)], ['127.0.0.1'])
})
