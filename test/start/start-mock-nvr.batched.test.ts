import t from 'tap'
import { FixtureError, OptionsError, startMockNvr } from '../../src/index.js'
import { line } from '../helpers/app.js'

t.test('startMockNvr listens on a free port and close() stops it', async t => {
  const nvr = await startMockNvr({ tokens: ['secret'] })
  t.match(nvr.url, /^http:\/\/127\.0\.0\.1:\d+$/)
  t.equal(nvr.url, `http://127.0.0.1:${nvr.port}`)
  const response = await fetch(`${nvr.url}/nvr/v1/cameras/cam-security-exit/counting_lines`, { headers: { authorization: 'Bearer secret' } })
  t.equal(response.status, 200)
  t.equal(((await response.json()) as { content: unknown[] }).content.length, 2)
  await nvr.close()
  await t.rejects(fetch(`${nvr.url}/healthz`))
})

t.test('in-memory data is served instead of fixtures, and validated like a fixture file', async t => {
  const nvr = await startMockNvr({ data: { counting_lines: [line()] } })
  t.teardown(nvr.close)
  const response = await nvr.app.inject({ url: '/nvr/v1/cameras/cam-1/counting_lines/line-1', headers: { authorization: 'Bearer any' } })
  t.equal(response.statusCode, 200)
  await t.rejects(startMockNvr({ data: { counting_lines: [{ id: 'x' }] } }), FixtureError)
})

t.test('bad options and bad fixture paths are refused before listening', async t => {
  await t.rejects(startMockNvr({ port: -1 }), OptionsError)
  await t.rejects(startMockNvr({ fixtures: '/no/such/fixtures' }), { name: 'FixtureError', message: /\/no\/such\/fixtures: no such file or folder/ })
})

/** Global timers as a page has them (jsdom under Vitest's vmThreads pool): they work, but return a number, with no unref(). */
function pageTimers (): () => void {
  const node = { setTimeout, clearTimeout, setInterval, clearInterval }
  const handles = new Map<number, NodeJS.Timeout>()
  const keep = (handle: NodeJS.Timeout): number => { handles.set(handles.size + 1, handle); return handles.size }
  Object.assign(globalThis, {
    setTimeout: (callback: () => void, ms?: number) => keep(node.setTimeout(callback, ms)),
    setInterval: (callback: () => void, ms?: number) => keep(node.setInterval(callback, ms)),
    clearTimeout: (id: number) => node.clearTimeout(handles.get(id)),
    clearInterval: (id: number) => node.clearInterval(handles.get(id))
  })
  return () => Object.assign(globalThis, node)
}

t.test('a test environment whose global timers are a page\'s does not break a start, a delay or a close', async t => {
  const restore = pageTimers()
  try {
    const nvr = await startMockNvr({ latency: 1 })
    // Node's own fetch takes the global timers too (a page's fetch would not), so the request is injected.
    const response = await nvr.app.inject({ url: '/nvr/v1/cameras/cam-security-exit/counting_lines', headers: { authorization: 'Bearer any' } })
    t.equal(response.statusCode, 200)
    await nvr.close()
  } finally {
    restore()
  }
})
