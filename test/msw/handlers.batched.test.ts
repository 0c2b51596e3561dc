import { readFile } from 'node:fs/promises'
import { setupServer } from 'msw/node'
import t from 'tap'
import { BUNDLED_FIXTURES, loadFixtures } from '../../src/index.js'
import { resolveOptions } from '../../src/config/options.js'
import { createNvrHandlers, FixtureError, InvalidFaultError, OptionsError, type NvrHandlersOptions } from '../../src/msw/index.js'
import { DEMO_FIXTURES } from '../../src/msw/demo-fixtures.js'
import { line } from '../helpers/app.js'

const AUTH = { authorization: 'Bearer any' }

t.test('the generated demo module holds exactly the bundled fixture files', async t => {
  const files = await Promise.all(DEMO_FIXTURES.map(async ({ file, data }) => [data, JSON.parse(await readFile(new URL(file, `file://${BUNDLED_FIXTURES}`), 'utf8'))]))
  t.ok(files.length > 0)
  for (const [inModule, onDisk] of files) t.strictSame(inModule, onDisk, 'run `node scripts/demo-fixtures.js` after editing fixtures/')
  const nvr = createNvrHandlers({ baseUrl: 'http://nvr.test' })
  const { cameraIds, lines } = await loadFixtures(BUNDLED_FIXTURES)
  t.strictSame(nvr.data(), { cameras: cameraIds.map(id => ({ id })), counting_lines: lines }, 'the demo data is served by default')
})

t.test('options are checked, with a sentence naming the option', async t => {
  const refused = (options: Record<string, unknown> | undefined, message: string) =>
    t.throws(() => createNvrHandlers(options as unknown as NvrHandlersOptions), new OptionsError(message), message)
  refused(undefined, 'option baseUrl is missing')
  refused({ baseUrl: 'nvr.test' }, 'option baseUrl must be an origin such as \'http://nvr.test\' or location.origin, without a path, not "nvr.test"')
  refused({ baseUrl: 'http://nvr.test/api' }, 'option baseUrl must be an origin such as \'http://nvr.test\' or location.origin, without a path, not "http://nvr.test/api"')
  refused({ baseUrl: 'about:blank' }, 'option baseUrl must be an origin such as \'http://nvr.test\' or location.origin, without a path, not "about:blank"')
  refused({ baseUrl: new URL('http://nvr.test') }, 'option baseUrl must be a string, not "http://nvr.test/"')
  // A misspelt option would otherwise leave the API open to any token.
  refused({ baseUrl: 'http://nvr.test', token: ['secret'] }, 'option token is not known; did you mean "tokens"?')
  t.throws(() => createNvrHandlers({ baseUrl: 'http://nvr.test', data: { cameras: [{ id: '' }] } }), new FixtureError([{ file: 'data', path: '/cameras/0/id', message: 'must not be empty' }]))
  t.throws(() => createNvrHandlers({ baseUrl: 'http://nvr.test' }).injectFault({ status: 200 }), InvalidFaultError)
  t.ok(createNvrHandlers({ baseUrl: 'http://nvr.test/', latency: { min: 0, max: 0 }, seed: 7, tokens: undefined }))
  refused({ baseUrl: 'http://nvr.test', now: () => 5 }, 'option now is not known: the rate limit reads the device\'s one clock; give clock: \'manual\' and move it with clock.advance(ms)')
  refused({ baseUrl: 'http://nvr.test', clock: 'fake' }, 'option clock must be "real" or "manual", not "fake"')
})

t.test('the options startMockNvr takes too are refused in its words', async t => {
  const bad: Array<Record<string, unknown>> = [
    { tokens: 'abc' }, { tokens: [''] }, { tokens: ['ok', 'has space'] }, { tokens: [7] },
    { corsOrigins: ['nvr.test'] }, { corsOrigins: ['http://a.test', '*'] }, { corsOrigins: 'http://a.test' },
    { seed: 1.5 }, { seed: -1 }, { seed: '7' },
    { latency: -1 }, { latency: '800' }, { latency: { min: 9, max: 1 } }, { latency: { min: 1 } },
    { scopedTokens: [{ token: '', cameras: ['a'] }] }, { scopedTokens: [{ token: 'a b', cameras: ['a'] }] }, { scopedTokens: [{ token: 'a', cameras: [''] }] },
    { scopedTokens: { token: 'a', cameras: [] } }, { tokens: ['x', 'same'], scopedTokens: [{ token: 'same', cameras: ['a'] }] },
    { rateLimit: 0 }, { rateLimit: 2.5 }, { rateLimit: '5' }
  ]
  for (const options of bad) {
    const fromServer = t.throws(() => resolveOptions(options)) as Error
    t.type(fromServer, OptionsError)
    t.throws(() => createNvrHandlers({ baseUrl: 'http://nvr.test', ...options }), fromServer, `${JSON.stringify(options)}: ${fromServer.message}`)
  }
})

t.test('the control verbs change what the handlers answer', async t => {
  const nvr = createNvrHandlers({ baseUrl: 'http://nvr.test', data: { counting_lines: [line()] }, latency: 0 })
  const server = setupServer(...nvr.handlers)
  server.listen({ onUnhandledRequest: 'bypass' })
  t.teardown(() => server.close())
  const get = (path: string) => fetch(`http://nvr.test${path}`, { headers: AUTH })

  t.equal((await get('/nvr/v1/cameras/cam-1/counting_lines/line-1')).status, 200)
  t.strictSame(nvr.use({ counting_lines: [line({ id: 'line-9' })] }), { cameras: 1, countingLines: 1 })
  t.equal((await get('/nvr/v1/cameras/cam-1/counting_lines/line-1')).status, 404)
  t.strictSame(nvr.resetData(), { cameras: 1, countingLines: 1 })
  t.equal((await get('/nvr/v1/cameras/cam-1/counting_lines/line-1')).status, 200)

  const fault = nvr.injectFault({ status: 503, times: 1 })
  t.strictSame(nvr.faults(), [fault])
  t.equal((await get('/nvr/v1/cameras/cam-1/counting_lines')).status, 503)
  t.strictSame(nvr.faults(), [])
  nvr.injectFault({ drop: true })
  await t.rejects(get('/nvr/v1/cameras/cam-1/counting_lines'), TypeError, 'a dropped connection is a network error')
  t.equal(nvr.clearFaults('fault-9'), false)
  t.equal(nvr.clearFaults(), true)

  t.same(nvr.requests().map(({ status, fault }) => [status, fault]), [[200, null], [404, null], [200, null], [503, 'fault-1'], [null, 'fault-2']])
  t.strictSame(nvr.requests()[0]?.params, { id: 'cam-1', line_id: 'line-1' })
  nvr.resetRequests()
  t.strictSame(nvr.requests(), [])
  nvr.use({ counting_lines: [] })
  nvr.injectFault({ status: 500 })
  await get('/nvr/v1')
  t.strictSame(nvr.requests()[0]?.params, {})
  nvr.reset()
  t.strictSame([nvr.faults(), nvr.requests(), nvr.data().counting_lines?.length], [[], [], 1])
})

t.test('requests outside /nvr/v1 or to another origin are left alone', async t => {
  const nvr = createNvrHandlers({ baseUrl: 'http://nvr.test' })
  const server = setupServer(...nvr.handlers)
  server.listen({ onUnhandledRequest: 'error' })
  t.teardown(() => server.close())
  // With onUnhandledRequest: 'error', MSW refuses each request no handler took.
  const unhandled = { message: /Cannot bypass a request/ }
  await t.rejects(fetch('http://nvr.test/healthz'), unhandled)
  await t.rejects(fetch('http://nvr.test/nvr/v10/cameras'), unhandled)
  await t.rejects(fetch('http://other.test/nvr/v1/cameras/cam-security-exit/counting_lines', { headers: AUTH }), unhandled)
  t.equal((await fetch('http://nvr.test/nvr/v1/cameras/cam-security-exit/counting_lines', { headers: AUTH })).status, 200)
})

t.test('on the manual clock the handlers\' latency and the rate limit\'s refill move only with clock.advance', async t => {
  const nvr = createNvrHandlers({ baseUrl: 'http://nvr.test', latency: 300, rateLimit: 1, clock: 'manual' })
  const worker = setupServer(...nvr.handlers)
  worker.listen({ onUnhandledRequest: 'error' })
  t.teardown(() => worker.close())
  const list = 'http://nvr.test/nvr/v1/cameras/cam-security-exit/counting_lines'
  let status: number | undefined
  const first = fetch(list, { headers: { authorization: 'Bearer any' } }).then(answer => { status = answer.status })
  for (let turn = 0; turn < 200 && nvr.clock.pending === 0; turn++) await new Promise(resolve => setTimeout(resolve, 10))
  t.equal(nvr.clock.pending, 1, 'the latency holds the request')
  await nvr.clock.advance(299)
  t.equal(status, undefined)
  await nvr.clock.advance(1)
  await first
  t.equal(status, 200)
  const limited = fetch(list, { headers: { authorization: 'Bearer any' } })
  for (let turn = 0; turn < 200 && nvr.clock.pending === 0; turn++) await new Promise(resolve => setTimeout(resolve, 10))
  await nvr.clock.advance(300)
  t.equal((await limited).status, 429, 'refused: no time has passed for the bucket but the latency')
  await nvr.clock.advance(1000)
  const refilled = fetch(list, { headers: { authorization: 'Bearer any' } })
  for (let turn = 0; turn < 200 && nvr.clock.pending === 0; turn++) await new Promise(resolve => setTimeout(resolve, 10))
  await nvr.clock.advance(300)
  t.equal((await refilled).status, 200, 'refilled as the clock moved')
})
