import fc from 'fast-check'
import { RealClock } from '../../src/util/real-clock.js'
import t from 'tap'
import { checkAnswer } from '../helpers/answer-invariants.js'
import { Device } from '../../src/device/device.js'
import { TokenPolicy } from '../../src/wire/token-policy.js'
import { CorsPolicy } from '../../src/wire/cors.js'
import { DataStore } from '../../src/data/data-store.js'
import { datasetFromData } from '../../src/data/dataset.js'
import { build } from '../helpers/app.js'
import {
  ACCEPTED_TOKEN, ADMIN_TOKEN, body, credentials, headerObject, HOSTILE_DATA, method, otherHeaders, PROPERTY_SEED, propertyRuns, target,
  type Credentials, type OtherHeaders
} from '../helpers/hostile-requests.js'
import { exchange, parseAnswers } from '../helpers/raw-http.js'

const RUNS = propertyRuns(250)

/** What fetch and other clients refuse to send: odd methods and versions, missing or doubled headers, lying lengths. */
const rawMethod = fc.oneof({ weight: 5, arbitrary: method }, fc.constantFrom('CONNECT', 'get', 'FOO', 'G\u0000T', 'GET GET', ''))
const version = fc.constantFrom('HTTP/1.1', 'HTTP/1.1', 'HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.2', 'http/1.1', 'HTTP/1.1 x', '')
const host = fc.constantFrom<string[]>(['localhost'], ['localhost'], ['localhost'], [], ['a', 'b'], ['h\u00e9\u00ff'], [''])
const framing = fc.constantFrom('length', 'length', 'chunked', 'short', 'both', 'bad-length')
const lineEnd = fc.constantFrom('\r\n', '\r\n', '\r\n', '\r\n', '\n')
const authorizations = fc.array(credentials, { minLength: 1, maxLength: 2 })

interface RawRequest {
  verb: string
  path: string
  version: string
  hosts: string[]
  auths: Credentials[]
  other: OtherHeaders
  payload: string | undefined
  framing: string
  eol: string
}

function serialize ({ verb, path, version, hosts, auths, other, payload, framing, eol }: RawRequest): Buffer {
  const headers: Array<[string, string]> = hosts.map(value => ['Host', value])
  for (const auth of auths) if (auth.authorization !== undefined) headers.push(['Authorization', auth.authorization])
  for (const [name, value] of Object.entries(headerObject({ accepted: false }, other))) headers.push([name, value])
  let content = Buffer.alloc(0)
  if (payload !== undefined) {
    const data = Buffer.from(payload)
    if (framing === 'chunked' || framing === 'both') headers.push(['Transfer-Encoding', 'chunked'])
    if (framing !== 'chunked') headers.push(['Content-Length', framing === 'short' ? String(data.length + 1000) : framing === 'bad-length' ? '-1' : String(data.length)])
    content = framing === 'chunked' || framing === 'both' ? Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n0\r\n\r\n')]) : data
  }
  const text = (value: string) => Buffer.from(value, [...value].every(char => char.charCodeAt(0) <= 0xff) ? 'latin1' : 'utf8')
  return Buffer.concat([
    Buffer.from(`${verb} `), text(path), Buffer.from(` ${version}${eol}`),
    ...headers.map(([name, value]) => Buffer.concat([Buffer.from(`${name}: `), text(value), Buffer.from(eol)])),
    Buffer.from(eol), content
  ])
}

/**
 * Whether the request line and headers pass the 64 KB limit: Node reads 64 KB at a time, so it refuses them
 * (431) on a later read, which no longer holds the method, and the refusal is written as to a GET.
 */
function refusedPastFirstRead (bytes: Buffer, eol: string): boolean {
  const end = bytes.indexOf(eol + eol)
  return (end === -1 ? bytes.length : end) > READ_SIZE
}
const READ_SIZE = 65536

t.test(`generated raw requests always get an answer the contract allows (socket, seed ${PROPERTY_SEED}, ${RUNS} runs)`, async t => {
  const control = new Device({ name: 'nvr', clock: new RealClock(), store: new DataStore(datasetFromData(HOSTILE_DATA)), tokens: new TokenPolicy([ACCEPTED_TOKEN], [ADMIN_TOKEN]), cors: new CorsPolicy() })
  const app = await build(t, { device: control, adminToken: ADMIN_TOKEN })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = (app.server.address() as { port: number }).port
  const request = fc.record({ verb: rawMethod, path: target.map(({ path }) => path), version, hosts: host, auths: authorizations, other: otherHeaders, payload: body, framing, eol: lineEnd })

  await fc.assert(fc.asyncProperty(request, async raw => {
    const bytes = serialize(raw)
    const { received, error } = await exchange(port, bytes)
    const head = raw.verb === 'HEAD' && !refusedPastFirstRead(bytes, raw.eol)
    const answers = parseAnswers(received, head)
    if (answers.length === 0) throw new Error(`no answer${error === undefined ? '' : ` (${error})`}`)
    const [first, ...later] = answers
    // Node keeps the first of several Authorization headers.
    const auth = raw.auths.find(({ authorization }) => authorization !== undefined) ?? { accepted: false }
    const headers = headerObject(auth, raw.other)
    checkAnswer({ method: head || raw.verb !== 'HEAD' ? raw.verb : 'GET', path: raw.path, headers, accepted: auth.accepted, admin: auth.admin, found: false }, first as never)
    // An admin call may change the data or inject a fault on purpose; the next request starts afresh.
    if (raw.auths.some(({ admin }) => admin === true)) control.reset()
    // Anything after the answer can only be a refusal of what followed it on the connection.
    for (const answer of later) checkAnswer({ method: 'GET', path: '', headers: {}, accepted: false, found: false }, answer)

    const health = parseAnswers((await exchange(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')).received)
    if (health[0]?.status !== 200) throw new Error('the server does not answer normally afterwards')
  }), { seed: PROPERTY_SEED, numRuns: RUNS })
})
