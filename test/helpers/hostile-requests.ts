import { METHODS } from 'node:http'
import fc from 'fast-check'
import type { FixtureData } from '../../src/contract/schemas.js'
import { line } from './app.js'

/** Fixed, so a failure can be replayed; PROPERTY_SEED and PROPERTY_RUNS explore further. */
export const PROPERTY_SEED = Number(process.env.PROPERTY_SEED ?? 20261122)
export const propertyRuns = (runs: number): number => Number(process.env.PROPERTY_RUNS ?? runs)

export const ACCEPTED_TOKEN = 'accepted-secret-7f3a91'
export const REFUSED_TOKEN = 'refused-secret-c04e6b'
export const ADMIN_TOKEN = 'admin-secret-5d28e0'
/** Every secret the server knows or is sent: none may ever appear in an answer or a log line. */
export const SECRETS = [ACCEPTED_TOKEN, REFUSED_TOKEN, ADMIN_TOKEN]

/** Ids a URL finds awkward, served for real, so the properties reach the 200 answers too. */
export const HOSTILE_DATA: FixtureData = {
  cameras: [{ id: 'cam-empty' }, { id: '..' }],
  counting_lines: [
    line({ id: 'line-1', camera_id: 'cam-1' }),
    line({ id: '../../etc/passwd', camera_id: 'dir/cam' }),
    line({ id: 'ünï 📷', camera_id: 'cåm ü+%2F' }),
    line({ id: '__proto__', camera_id: 'constructor' })
  ]
}
const KNOWN_PAIRS = (HOSTILE_DATA.counting_lines ?? []).map(({ camera_id: camera, id }) => [camera, id] as const)

/** A request's target, and whether the contract says a bearer of the accepted token gets a 200 there. */
export interface Target {
  path: string
  found: boolean
}

/** Builds a path from two generated segments. */
type TargetShape = (a: string, b: string) => string

/** Every place a request can aim at. A new area of the server (such as an admin API) adds its line here. */
export const TARGET_SHAPES: TargetShape[] = [
  a => `/nvr/v1/cameras/${a}/counting_lines`,
  (a, b) => `/nvr/v1/cameras/${a}/counting_lines/${b}`,
  (a, b) => `/nvr/v1/cameras/${a}/${b}`,
  a => `/nvr/v1/${a}`,
  () => '/nvr/v1',
  () => '/healthz',
  () => '/openapi.json',
  a => `/docs/${a}`,
  () => '/__admin/data',
  () => '/__admin/faults',
  (a, b) => `/__admin/${a}/${b}`,
  a => `/${a}`,
  (a, b) => `/${a}/${b}`
]

// Dots are encoded too, so that no client or router on the way resolves `..` as a path step.
const encodeSegment = (id: string) => encodeURIComponent(id).replaceAll('.', '%2E')

const trickyId = fc.constantFrom(
  '..', '.', '../../etc/passwd', '..\\..\\windows\\win.ini', '/etc/passwd', '%2e%2e', '..%2F..%2Fetc%2Fpasswd',
  '%00', '\u0000', 'cam-1\u0000', 'CAM-1', ' cam-1', '%', '%%', '%zz', '%C0%AF', '%E0%A4%A', '%FF', '%252F',
  '__proto__', 'constructor', 'prototype', 'toString', '*', ':id', '?', '#', ';', '\r\n', 'e\u0301', '\uFEFF', '\u202E'
)
const unicodeId = fc.string({ unit: 'grapheme', maxLength: 12 })
const controlId = fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map(code => String.fromCharCode(code)), minLength: 1, maxLength: 4 })
const hugeId = fc.constantFrom('x', 'é', '%2F').chain(unit => fc.integer({ min: 60_000, max: 70_000 }).map(bytes => unit.repeat(Math.ceil(bytes / unit.length))))
const anyId = fc.oneof({ weight: 3, arbitrary: trickyId }, { weight: 3, arbitrary: unicodeId }, controlId, { weight: 1, arbitrary: hugeId })

/** A path segment: an id as is, percent-encoded once or twice, or with broken percent-encoding. */
const segment = fc.tuple(anyId, fc.constantFrom('raw', 'encoded', 'twice', 'broken')).map(([id, encoding]) => {
  if (encoding === 'encoded') return encodeSegment(id)
  if (encoding === 'twice') return encodeURIComponent(encodeSegment(id))
  if (encoding === 'broken') return `${encodeSegment(id)}%`
  return id
})

const query = fc.oneof(
  fc.constantFrom('', '?', '?a=1&a=2', '?__proto__[polluted]=1', '?constructor[prototype][polluted]=1', '?%zz=%', '#fragment'),
  fc.string({ unit: 'grapheme', maxLength: 30 }).map(text => `?${encodeURIComponent(text)}=${text.replace(/[\s#]/g, '')}`)
)
const suffix = fc.constantFrom('', '', '', '/', '//', '/..', '/.', '/%2e%2e')

const knownTarget: fc.Arbitrary<Target> = fc.constantFrom(...KNOWN_PAIRS).chain(([camera, id]) => fc.constantFrom(
  { path: `/nvr/v1/cameras/${encodeSegment(camera)}/counting_lines`, found: true },
  { path: `/nvr/v1/cameras/${encodeSegment(camera)}/counting_lines/${encodeSegment(id)}`, found: true }
))
const generatedTarget: fc.Arbitrary<Target> = fc.tuple(fc.constantFrom(...TARGET_SHAPES), segment, segment, suffix, query)
  .map(([shape, a, b, end, search]) => ({ path: `${shape(a, b)}${end}${search}`, found: false }))

export const target = fc.oneof({ weight: 1, arbitrary: knownTarget }, { weight: 4, arbitrary: generatedTarget })

/** Every method Node parses but CONNECT, which never reaches the routes. */
export const method = fc.constantFrom(...METHODS.filter(name => name !== 'CONNECT'))

/** Authorization values, each with how the contract judges it. */
export interface Credentials {
  authorization?: string
  accepted: boolean
  /** The admin token: it opens the admin API and nothing else. */
  admin?: boolean
}
const acceptedAuthorization = fc.constantFrom(`Bearer ${ACCEPTED_TOKEN}`, `bearer ${ACCEPTED_TOKEN}`, `BEARER   ${ACCEPTED_TOKEN}`)
const refusedAuthorization = fc.oneof(
  fc.constantFrom(
    `Bearer ${REFUSED_TOKEN}`, `Bearer ${ACCEPTED_TOKEN} ${REFUSED_TOKEN}`, `Bearer ${ACCEPTED_TOKEN}x`, `Bearer x${ACCEPTED_TOKEN}`,
    ACCEPTED_TOKEN, `Basic ${ACCEPTED_TOKEN}`, `Basic ${Buffer.from(`user:${ACCEPTED_TOKEN}`).toString('base64')}`,
    'Bearer', 'Bearer ', `Bearer\t${ACCEPTED_TOKEN}`, `Token ${ACCEPTED_TOKEN}`, `Bearer ${REFUSED_TOKEN}\u00e9\u00ff`,
    `Bearer ${ACCEPTED_TOKEN},Bearer ${REFUSED_TOKEN}`, `Bearer ${'x'.repeat(20_000)}`
  ),
  fc.string({ unit: 'binary', maxLength: 40 }).map(text => `Bearer ${text}`)
)
export const credentials: fc.Arbitrary<Credentials> = fc.oneof(
  fc.constant({ accepted: false }),
  acceptedAuthorization.map(authorization => ({ authorization, accepted: true })),
  fc.constantFrom(`Bearer ${ADMIN_TOKEN}`, `bearer ${ADMIN_TOKEN}`).map(authorization => ({ authorization, accepted: false, admin: true })),
  refusedAuthorization.map(authorization => ({ authorization: withoutLineBreaks(authorization), accepted: false }))
)

/** A header value of any bytes but line breaks, which would start a new header. */
const headerValue = fc.string({ unit: fc.integer({ min: 0, max: 0xff }).map(code => String.fromCharCode(code)), maxLength: 40 }).map(withoutLineBreaks)
const headerName = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/).filter(name => !['host', 'content-length', 'transfer-encoding', 'authorization'].includes(name))

/** Other headers: a preflight's, content types, odd values, non-ASCII bytes, and sometimes one of 70 KB. */
export const otherHeaders = fc.record({
  preflight: fc.boolean(),
  contentType: fc.option(fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', ';;;', 'application/json; charset=nope'), { nil: undefined }),
  expect: fc.option(fc.constantFrom('100-continue', 'something-else'), { nil: undefined }),
  extra: fc.array(fc.tuple(headerName, headerValue), { maxLength: 4 }),
  huge: fc.boolean().map(yes => yes ? 'y'.repeat(70_000) : undefined)
}, { requiredKeys: ['preflight', 'extra'] })
export type OtherHeaders = typeof otherHeaders extends fc.Arbitrary<infer T> ? T : never

/** A body, now and then: text, JSON trying prototype pollution, or 200 KB. */
export const body = fc.option(fc.oneof(
  fc.string({ maxLength: 50 }),
  fc.constantFrom('{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '{', 'x'.repeat(200_000))
), { nil: undefined, freq: 3 })

function withoutLineBreaks (text: string): string {
  return text.replace(/[\r\n]/g, ' ')
}

/** The headers of a request as a plain object, for inject and the checks. */
export function headerObject (auth: Credentials, other: OtherHeaders): Record<string, string> {
  const headers: Record<string, string> = Object.fromEntries(other.extra)
  if (auth.authorization !== undefined) headers.authorization = auth.authorization
  if (other.preflight) Object.assign(headers, { origin: 'http://app.example', 'access-control-request-method': 'GET' })
  if (other.contentType !== undefined) headers['content-type'] = other.contentType
  if (other.expect !== undefined) headers.expect = other.expect
  if (other.huge !== undefined) headers['x-huge'] = other.huge
  return headers
}
