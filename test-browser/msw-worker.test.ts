import { once } from 'node:events'
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { build } from 'esbuild'
import t from 'tap'
import { launchChromium } from './chromium.js'
import { startMockNvr } from '../src/index.js'

const HTML = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>msw</title></head><body><pre id="outcome"></pre><script type="module" src="/page.js"></script></body></html>'

// The page's script, bundled for the browser as a frontend's bundler would: esbuild fails on any node: import.
const bundle = await build({
  entryPoints: [new URL('msw-page/page.js', import.meta.url).pathname],
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'browser',
  logLevel: 'silent'
})
// The file `npx msw init <public folder>` copies into a project.
const serviceWorker = await readFile(new URL('../node_modules/msw/lib/mockServiceWorker.js', import.meta.url))
const files: Record<string, [string, string | Uint8Array]> = {
  '/': ['text/html; charset=utf-8', HTML],
  '/page.js': ['text/javascript', (bundle.outputFiles[0] as { contents: Uint8Array }).contents],
  '/mockServiceWorker.js': ['text/javascript', serviceWorker]
}
// A service worker needs a secure context: http://127.0.0.1 is one.
const site = createServer((request, response) => {
  const file = files[request.url ?? '']
  if (file === undefined) response.writeHead(404).end()
  else response.writeHead(200, { 'content-type': file[0] }).end(file[1])
})
site.listen(0, '127.0.0.1')
await once(site, 'listening')
const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
const browser = await launchChromium()
t.teardown(async () => {
  await browser.close()
  site.closeAllConnections()
  site.close()
})

t.test('in Chromium, a page with the handlers in a service worker gets the demo data, and the server\'s answers', async t => {
  const page = await browser.context.newPage()
  t.teardown(() => page.close())
  await page.goto(`${origin}/`)
  await page.locator('body[data-outcome]').waitFor({ state: 'attached' })
  const outcome = JSON.parse(await page.locator('#outcome').innerText())
  t.equal(await page.locator('body').getAttribute('data-outcome'), 'done', JSON.stringify(outcome))

  // The server on the same demo data answers the same requests with the same bytes.
  const nvr = await startMockNvr({ tokens: ['browser-token'] })
  t.teardown(() => nvr.close())
  const LIST = `${nvr.url}/nvr/v1/cameras/cam-pier-b-gates/counting_lines`
  const auth = { headers: { authorization: 'Bearer browser-token' } }
  const fromServer = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, init)
    return { status: response.status, authenticate: response.headers.get('www-authenticate'), body: await response.text() }
  }
  t.strictSame(outcome.list, await fromServer(LIST, auth))
  t.equal(outcome.list.status, 200)
  t.strictSame(JSON.parse(outcome.list.body).content.map((line: { id: string }) => line.id), ['line-b12-boarding-door', 'line-b14-boarding-door', 'line-b12-podium-queue', 'line-pier-b-corridor'])
  t.strictSame(outcome.line, await fromServer(`${LIST}/line-b12-boarding-door`, auth))
  t.strictSame(outcome.head, { status: 200, authenticate: null, body: '' })
  t.strictSame(outcome.noToken, await fromServer(LIST))
  t.equal(outcome.noToken.status, 401)
  t.strictSame(outcome.malformed, await fromServer(`${nvr.url}/nvr/v1/cameras/%zz/counting_lines`, auth))
  t.equal(outcome.malformed.status, 400)
  nvr.injectFault({ status: 503, times: 1 })
  t.strictSame(outcome.injected, await fromServer(LIST, auth))
  t.strictSame(outcome.journal, [
    'GET /nvr/v1/cameras/cam-pier-b-gates/counting_lines 200',
    'GET /nvr/v1/cameras/cam-pier-b-gates/counting_lines/line-b12-boarding-door 200',
    'HEAD /nvr/v1/cameras/cam-pier-b-gates/counting_lines 200',
    'GET /nvr/v1/cameras/cam-pier-b-gates/counting_lines 401',
    'GET /nvr/v1/cameras/%zz/counting_lines 400',
    'GET /nvr/v1/cameras/cam-pier-b-gates/counting_lines 503'
  ])
})
