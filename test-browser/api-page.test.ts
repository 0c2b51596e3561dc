import t from 'tap'
import { startMockNvr } from '../src/index.js'
import { authorize, openApiPage, parameterValues, tryOperation } from './api-page-actions.js'
import { launchChromium } from './chromium.js'

const TOKEN = 'browser-token'

const browser = await launchChromium()
const nvr = await startMockNvr({ tokens: [TOKEN] })
t.teardown(async () => {
  await browser.close()
  await nvr.close()
})

const contentOf = (body: string) => (JSON.parse(body) as { content: unknown }).content

t.test('the root leads to the API page, which shows the document', async t => {
  const page = await browser.context.newPage()
  t.teardown(() => page.close())
  await page.goto(nvr.url)
  t.equal(page.url(), `${nvr.url}/docs`)
  await page.locator('.swagger-ui .info .title').waitFor()
  t.match(await page.locator('.swagger-ui .info .title').innerText(), 'mock-nvr: Counting Lines Read API')
})

t.test('a person authorizes with a token and tries both operations', async t => {
  const first = await browser.context.newPage()
  t.teardown(() => first.close())
  await openApiPage(first, nvr.url)
  t.equal((await tryOperation(first, 'listCountingLines')).status, '401', 'without a token, the API refuses')

  const page = await browser.context.newPage()
  t.teardown(() => page.close())
  await openApiPage(page, nvr.url)
  await authorize(page, TOKEN)
  const list = await tryOperation(page, 'listCountingLines')
  t.equal(list.status, '200')
  t.equal(list.requestUrl, `${nvr.url}/nvr/v1/cameras/cam-pier-b-gates/counting_lines`, 'the same origin, the example camera')
  t.strictSame((contentOf(list.body) as Array<{ id: string }>).map(line => line.id),
    ['line-b12-boarding-door', 'line-b14-boarding-door', 'line-b12-podium-queue', 'line-pier-b-corridor'])
  t.strictSame(await parameterValues(page, 'listCountingLines'), ['cam-pier-b-gates'])

  const retrieve = await tryOperation(page, 'retrieveCountingLine')
  t.equal(retrieve.status, '200')
  t.match(contentOf(retrieve.body), { id: 'line-b12-boarding-door', camera_id: 'cam-pier-b-gates' })
})

t.test('the token authorized above is kept when the page is opened again', async t => {
  const page = await browser.context.newPage()
  t.teardown(() => page.close())
  await openApiPage(page, nvr.url)
  t.equal((await tryOperation(page, 'listCountingLines')).status, '200')
})
