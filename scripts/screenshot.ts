// Takes docs/api-page.png for the README: the API page after "Try it out" on the list operation.
// Run with `npm run screenshot`; it uses the same Chromium as the browser tests.
import { mkdir } from 'node:fs/promises'
import { startMockNvr } from '../src/index.js'
import { authorize, openApiPage, tryOperation } from '../test-browser/api-page-actions.js'
import { launchChromium } from '../test-browser/chromium.js'

const OUTPUT = new URL('../docs/api-page.png', import.meta.url)

const nvr = await startMockNvr()
const browser = await launchChromium()
try {
  const page = await browser.context.newPage()
  await page.setViewportSize({ width: 1200, height: 1500 })
  await openApiPage(page, nvr.url)
  await authorize(page, 'demo-token')
  const { status } = await tryOperation(page, 'listCountingLines')
  if (status !== '200') throw new Error(`the list operation answered ${status}, not 200`)
  await page.evaluate('window.scrollTo(0, 0)')
  await mkdir(new URL('.', OUTPUT), { recursive: true })
  await page.screenshot({ path: OUTPUT.pathname })
  process.stdout.write(`wrote ${OUTPUT.pathname}\n`)
} finally {
  await browser.close()
  await nvr.close()
}
