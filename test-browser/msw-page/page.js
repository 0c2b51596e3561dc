/* global location, document */
// A page as a frontend developer would set it up: mock-nvr's MSW handlers in a service worker, then
// plain fetches. Bundled by esbuild for the browser; it shows what each fetch got as JSON in #outcome.
import { setupWorker } from 'msw/browser'
import { createNvrHandlers } from '../../src/msw/index.js'

const TOKEN = 'browser-token'
const LIST = '/nvr/v1/cameras/cam-pier-b-gates/counting_lines'

async function seen (path, init = {}) {
  const response = await fetch(path, init)
  return { status: response.status, authenticate: response.headers.get('www-authenticate'), body: await response.text() }
}

async function main () {
  const nvr = createNvrHandlers({ baseUrl: location.origin, tokens: [TOKEN] })
  await setupWorker(...nvr.handlers).start({ quiet: true, onUnhandledRequest: 'bypass' })
  const auth = { headers: { authorization: `Bearer ${TOKEN}` } }
  const outcome = {
    list: await seen(LIST, auth),
    line: await seen(`${LIST}/line-b12-boarding-door`, auth),
    head: await seen(LIST, { ...auth, method: 'HEAD' }),
    noToken: await seen(LIST),
    malformed: await seen('/nvr/v1/cameras/%zz/counting_lines', auth),
    injected: (nvr.injectFault({ status: 503, times: 1 }), await seen(LIST, auth)),
    journal: nvr.requests().map(({ method, path, status }) => `${method} ${path} ${String(status)}`)
  }
  document.querySelector('#outcome').textContent = JSON.stringify(outcome)
  document.body.dataset.outcome = 'done'
}

main().catch(error => {
  document.querySelector('#outcome').textContent = JSON.stringify({ error: String(error) })
  document.body.dataset.outcome = 'failed'
})
