import type { IncomingMessage, ServerResponse } from 'node:http'
import { RealClock } from '../../src/util/real-clock.js'
import t from 'tap'
import { FastPath } from '../../src/app/fast-path.js'
import { Device } from '../../src/device/device.js'
import { DataStore } from '../../src/data/data-store.js'
import { datasetFromData } from '../../src/data/dataset.js'
import { OptionsError, ScopedTokensError, startMockFleet, startMockNvr, type MockNvr } from '../../src/index.js'
import { CorsPolicy } from '../../src/wire/cors.js'
import { TokenPolicy } from '../../src/wire/token-policy.js'
import { AUTH, SAMPLE_DATA, TOKEN } from '../helpers/app.js'
import { ADMIN, ADMIN_TOKEN, buildControlled } from '../helpers/control.js'

// SAMPLE_DATA: cam-1 holds line-1 and line-2, cam-2 holds line-3, cam-empty holds none.
const SCOPED = 'scoped-token-1'
const TWICE = 'scoped-token-2'
const SCOPED_TOKENS = [
  { token: SCOPED, cameras: ['cam-1'] },
  { token: TWICE, cameras: ['cam-2'] },
  { token: TWICE, cameras: ['cam-empty'] }
]
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const list = (camera: string) => `/nvr/v1/cameras/${encodeURIComponent(camera)}/counting_lines`

const forbidden = (camera: string) => ({
  result: { success: false, httpCode: 403, errorCode: 'FORBIDDEN', errorMessage: `This token has no access to camera ${JSON.stringify(camera)}.` },
  content: null
})

t.test('a scoped token is accepted and sees its cameras as an all-camera token does', async t => {
  const { app } = await buildControlled(t, { scopedTokens: SCOPED_TOKENS })
  for (const url of [list('cam-1'), `${list('cam-1')}/line-2`, list('cam-2'), `${list('cam-2')}/line-3`, list('cam-empty')]) {
    const token = url.includes('cam-1') ? SCOPED : TWICE
    for (const method of ['GET', 'HEAD'] as const) {
      const scoped = await app.inject({ method, url, headers: bearer(token) })
      const everyCamera = await app.inject({ method, url, headers: AUTH })
      t.equal(scoped.statusCode, 200, `${method} ${url}`)
      t.equal(scoped.body, everyCamera.body, 'the same bytes')
      t.equal(scoped.headers['content-length'], everyCamera.headers['content-length'])
    }
  }
  const inScope = await app.inject({ url: `${list('cam-1')}/nope`, headers: bearer(SCOPED) })
  t.equal(inScope.statusCode, 404, 'an unknown line of a camera in scope is a 404 as usual')
  const listedButAbsent = await buildControlled(t, { scopedTokens: [{ token: SCOPED, cameras: ['cam-gone'] }] })
  t.equal((await listedButAbsent.app.inject({ url: list('cam-gone'), headers: bearer(SCOPED) })).statusCode, 404, 'a camera in scope that does not exist is a 404')
})

t.test('any camera outside the scope, known or not, is a 403 on both routes, GET and HEAD', async t => {
  const { app } = await buildControlled(t, { scopedTokens: SCOPED_TOKENS })
  const outside: Array<[string, string, string]> = [
    [SCOPED, list('cam-2'), 'cam-2'],
    [SCOPED, `${list('cam-2')}/line-3`, 'cam-2'],
    [SCOPED, `${list('cam-2')}/nope`, 'cam-2'],
    [SCOPED, list('cam-empty'), 'cam-empty'],
    [SCOPED, list('unknown-camera'), 'unknown-camera'],
    [SCOPED, `${list('unknown-camera')}/line-1`, 'unknown-camera'],
    [SCOPED, list('a/b'), 'a/b'],
    [TWICE, list('cam-1'), 'cam-1'],
    [TWICE, `${list('cam-1')}/line-1`, 'cam-1']
  ]
  for (const [token, url, camera] of outside) {
    const got = await app.inject({ url, headers: bearer(token) })
    t.equal(got.statusCode, 403, url)
    t.strictSame(got.json(), forbidden(camera))
    t.equal(got.headers['content-type'], 'application/json; charset=utf-8')
    const head = await app.inject({ method: 'HEAD', url, headers: bearer(token) })
    t.equal(head.statusCode, 403, `HEAD ${url}`)
    t.equal(head.body, '', 'HEAD has no body')
    t.equal(head.headers['content-length'], got.headers['content-length'])
  }
  // Known or not, the answer differs only by the id it quotes.
  const known = await app.inject({ url: list('cam-2'), headers: bearer(SCOPED) })
  const unknown = await app.inject({ url: list('cam-3'), headers: bearer(SCOPED) })
  t.equal(known.body.replace('cam-2', 'cam-X'), unknown.body.replace('cam-3', 'cam-X'), 'a scoped token learns nothing of other cameras')
  t.strictSame(Object.keys(known.headers).sort(), Object.keys(unknown.headers).sort())

  t.equal((await app.inject({ url: list('cam-2'), headers: AUTH })).statusCode, 200, 'an all-camera token still sees every camera')
  t.equal((await app.inject({ url: list('unknown-camera'), headers: AUTH })).statusCode, 404)
  t.equal((await app.inject({ url: list('cam-2'), headers: bearer('not-a-token') })).statusCode, 401, 'auth comes first')
  t.equal((await app.inject({ method: 'POST', url: list('cam-2'), headers: bearer(SCOPED) })).statusCode, 405, 'another method is a 405 for every token')
})

t.test('with no --token, any other token sees every camera and a scoped one only its own', async t => {
  const { app } = await buildControlled(t, { tokens: [], scopedTokens: SCOPED_TOKENS })
  t.equal((await app.inject({ url: list('cam-2'), headers: bearer('whatever') })).statusCode, 200)
  t.equal((await app.inject({ url: list('cam-2'), headers: bearer(SCOPED) })).statusCode, 403)
  t.equal((await app.inject({ url: list('cam-1'), headers: bearer(SCOPED) })).statusCode, 200)
})

t.test('the fast path never answers a camera outside the scope; Fastify answers it with the 403', async t => {
  const store = new DataStore(datasetFromData(SAMPLE_DATA))
  const tokens = new TokenPolicy([TOKEN], [], SCOPED_TOKENS)
  const device = new Device({ name: 'nvr', store, tokens, cors: new CorsPolicy(), clock: new RealClock(), settings: { journalSize: 10 } })
  const fastPath = new FastPath({ nextRequestId: () => 'req-x' })
  const response = { writeHead () {}, end () {} } as unknown as ServerResponse
  const asked = (url: string, token: string) => ({ method: 'GET', url, headers: { host: 'mock', ...bearer(token) }, socket: {} }) as unknown as IncomingMessage
  t.equal(fastPath.answer(device, asked(list('cam-1'), SCOPED), response), true, 'a camera in scope is answered')
  t.equal(fastPath.answer(device, asked(list('cam-2'), SCOPED), response), false, 'a known camera outside the scope is left')
  t.equal(fastPath.answer(device, asked(`${list('cam-2')}/line-3`, SCOPED), response), false)
  t.equal(fastPath.answer(device, asked(list('cam-2'), TOKEN), response), true)

  // Over a socket, where the fast path meets every request first.
  const nvr = await startMockNvr({ data: SAMPLE_DATA, tokens: [TOKEN], scopedTokens: SCOPED_TOKENS })
  t.teardown(() => nvr.close())
  for (const url of [list('cam-2'), `${list('cam-2')}/line-3`, list('nope')]) {
    for (const method of ['GET', 'HEAD']) {
      const answer = await fetch(`${nvr.url}${url}`, { method, headers: bearer(SCOPED) })
      t.equal(answer.status, 403, `${method} ${url}`)
      await answer.arrayBuffer()
    }
  }
  t.equal((await fetch(`${nvr.url}${list('cam-1')}`, { headers: bearer(SCOPED) })).status, 200)
})

t.test('the scoped tokens change at run time through the handle and the admin API, and reset restores them', async t => {
  const { app, control } = await buildControlled(t, { adminToken: ADMIN_TOKEN, scopedTokens: SCOPED_TOKENS })
  const status = async (token: string, camera: string) => (await app.inject({ url: list(camera), headers: bearer(token) })).statusCode

  t.strictSame(control.setScopedTokens([{ token: 'new-scoped', cameras: ['cam-2'] }]), { scopedTokens: 1 })
  t.equal(await status('new-scoped', 'cam-2'), 200)
  t.equal(await status('new-scoped', 'cam-1'), 403)
  t.equal(await status(SCOPED, 'cam-1'), 401, 'a scoped token no longer given is refused, as --token lists others')

  const put = await app.inject({ method: 'PUT', url: '/__admin/scoped-tokens', headers: ADMIN, payload: [{ token: 'from-admin', cameras: ['cam-empty', 'cam-1'] }, { token: 'none-at-all', cameras: [] }] })
  t.equal(put.statusCode, 200)
  t.strictSame(put.json(), { result: { success: true, httpCode: 200 }, content: { scopedTokens: 2 } })
  t.notOk(put.body.includes('from-admin'), 'the tokens are not echoed')
  t.equal(await status('from-admin', 'cam-1'), 200)
  t.equal(await status('from-admin', 'cam-2'), 403)
  t.equal(await status('none-at-all', 'cam-1'), 403, 'a token with no cameras sees none')
  t.equal(await status('new-scoped', 'cam-2'), 401)
  const got = await app.inject({ url: '/__admin/scoped-tokens', headers: ADMIN })
  t.strictSame(got.json().content, { scopedTokens: 2 })

  t.equal((await app.inject({ method: 'POST', url: '/__admin/reset', headers: ADMIN })).statusCode, 200)
  t.equal(await status(SCOPED, 'cam-1'), 200, 'reset gives the start-up scoped tokens back')
  t.equal(await status(SCOPED, 'cam-2'), 403)
  t.equal(await status('from-admin', 'cam-1'), 401)
  t.strictSame((await app.inject({ url: '/__admin/scoped-tokens', headers: ADMIN })).json().content, { scopedTokens: 2 })
})

t.test('scoped tokens that cannot be are refused, naming where, never the token, and nothing changes', async t => {
  const { app, control } = await buildControlled(t, { adminToken: ADMIN_TOKEN, scopedTokens: SCOPED_TOKENS })
  const bodies: Array<[unknown, string]> = [
    [[{ token: ADMIN_TOKEN, cameras: ['cam-1'] }], '/0/token: is the admin token, which must never open the device API'],
    [[{ token: 'fine', cameras: [] }, { token: TOKEN, cameras: ['cam-1'] }], '/1/token: is also given as an all-camera token: a token either sees every camera or only its own'],
    [[{ token: '', cameras: ['cam-1'] }], '/0/token: must not be empty'],
    [[{ token: 'two words', cameras: ['cam-1'] }], '/0/token: must be one word of visible ASCII characters (no spaces, no letters like ö or é)'],
    [[{ token: 'fine', cameras: [''] }], '/0/cameras/0: must not be empty'],
    [[{ token: 'fine' }], '/0/cameras: is missing'],
    [{ token: 'fine', cameras: [] }, 'must be an array']
  ]
  for (const [body, problem] of bodies) {
    const put = await app.inject({ method: 'PUT', url: '/__admin/scoped-tokens', headers: ADMIN, payload: body as object })
    t.equal(put.statusCode, 400, problem)
    t.strictSame(put.json().result, { success: false, httpCode: 400, errorCode: 'INVALID_BODY', errorMessage: `The request body is invalid: ${problem}.`, problems: [problemOf(problem)] })
    t.notOk(put.body.includes(ADMIN_TOKEN) || put.body.includes(TOKEN), 'no token echoed')
    t.throws(() => control.setScopedTokens(body as never), ScopedTokensError, 'the handle refuses it too')
  }
  t.throws(() => control.setScopedTokens([{ token: ADMIN_TOKEN, cameras: [] }]), { name: 'ScopedTokensError', message: 'Invalid scoped tokens: /0/token: is the admin token, which must never open the device API', problems: [{ path: '/0/token' }] })
  t.equal((await app.inject({ url: list('cam-1'), headers: bearer(SCOPED) })).statusCode, 200, 'nothing changed')
  t.equal((await app.inject({ url: list('cam-1'), headers: bearer(ADMIN_TOKEN) })).statusCode, 401, 'the admin token still opens nothing')
})

t.test('startMockNvr refuses a scoped token that is the admin token or an all-camera token', async t => {
  await t.rejects(startMockNvr({ data: SAMPLE_DATA, adminToken: 'same', scopedTokens: [{ token: 'same', cameras: ['cam-1'] }] }), new OptionsError('option scopedTokens[0].token is the admin token, which must never open the device API'))
  await t.rejects(startMockNvr({ data: SAMPLE_DATA, tokens: ['a', 'b'], scopedTokens: [{ token: 'c', cameras: [] }, { token: 'b', cameras: ['cam-1'] }] }), new OptionsError('option scopedTokens[1].token is also given as an all-camera token: a token either sees every camera or only its own'))
  await t.rejects(startMockNvr({ data: SAMPLE_DATA, scopedTokens: [{ token: 'a b', cameras: ['cam-1'] }] }), new OptionsError('option scopedTokens[0].token must be one word of visible ASCII characters (no spaces, no letters like ö or é)'))
  await t.rejects(startMockNvr({ proxy: { target: 'http://127.0.0.1:9' }, scopedTokens: [{ token: 'a', cameras: ['cam-1'] }] }), /option scopedTokens does not apply to a proxy/)
  t.throws(() => new TokenPolicy([], ['admin'], [{ token: 'admin', cameras: [] }]), ScopedTokensError, 'the policy checks on its own too')
})

// '/0/token: must not be empty' as the answer's problems list it; a problem of the whole body has the path ''.
function problemOf (sentence: string) {
  const [, path = '', message = sentence] = /^(\/\S*): (.*)$/.exec(sentence) ?? []
  return { path, message }
}

t.test('siblings share their tokens\' digests, each with scoped tokens of its own: a fleet\'s devices of the same settings', async t => {
  const first = new TokenPolicy([TOKEN], ['admin'], SCOPED_TOKENS)
  const [a, b] = [first.sibling(), first.sibling()]
  for (const policy of [a, b]) {
    t.equal(policy.judge(AUTH.authorization), 'accepted')
    t.match(policy.admit(`Bearer ${SCOPED}`), { token: SCOPED }, 'the scoped tokens it was made with')
    t.equal(policy.judge('Bearer admin'), 'invalid_token')
    t.equal(policy.neverAdmits('admin'), true)
    t.equal(policy.neverAdmits(TOKEN), false)
  }
  a.setScopedTokens([])
  t.equal(a.judge(`Bearer ${SCOPED}`), 'invalid_token', 'replaced on one')
  t.match(b.admit(`Bearer ${SCOPED}`), { token: SCOPED }, 'kept on the other')
  t.equal(new TokenPolicy(['both'], ['both']).neverAdmits('both'), false, 'a refused token that is also a token opens')
})

t.test('a fleet\'s devices of the same settings: one device\'s scoped tokens replaced, the others keep theirs', async t => {
  const fleet = await startMockFleet({ count: 2, data: SAMPLE_DATA, tokens: [TOKEN], scopedTokens: SCOPED_TOKENS, corsOrigins: ['https://app.example'] })
  t.teardown(() => fleet.close())
  const [first, second] = fleet.devices as [MockNvr, MockNvr]
  first.setScopedTokens([])
  const list = async (device: MockNvr) => (await fetch(`${device.url}/nvr/v1/cameras/cam-1/counting_lines`, { headers: bearer(SCOPED) })).status
  t.equal(await list(first), 401)
  t.equal(await list(second), 200)
})
