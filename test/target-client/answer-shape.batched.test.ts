import { gzipSync } from 'node:zlib'
import t from 'tap'
import { shapeOf, unruledDepartures } from '../../src/target-client/answer-shape.js'
import { decodeBody } from '../../src/target-client/body-decoding.js'
import { tokenRedactor } from '../../src/target-client/token-redaction.js'
import { formatBytes } from '../../src/util/byte-size.js'

const body = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value))
const error = (result: Record<string, unknown>) => body({ result: { success: false, httpCode: 404, ...result }, content: null })

t.test('what a body is: kinds, error members, extra members and a byte-order mark', async t => {
  t.strictSame(shapeOf(200, body('')), { kind: 'empty', bom: false, extraMembers: [] })
  t.strictSame(shapeOf(200, body('\ufeff')), { kind: 'not JSON: ""', bom: true, extraMembers: [] })
  t.strictSame(shapeOf(200, body(`<html>${'x'.repeat(40)}</html>`)).kind, `not JSON: "<html>${'x'.repeat(26)}…"`)
  for (const other of [[], '"text"', { result: [] }, { result: {}, content: null }, { result: { success: 'yes' }, content: null }, { result: { success: true } }]) {
    t.equal(shapeOf(200, body(other)).kind, 'other JSON', JSON.stringify(other))
  }
  t.strictSame(shapeOf(200, body({ result: { success: true, httpCode: 200 }, content: [] })), { kind: 'success envelope', bom: false, extraMembers: [] })
  t.strictSame(shapeOf(404, error({ errorCode: 'NOT_FOUND', errorMessage: 'No.' })), { kind: 'error envelope', bom: false, extraMembers: [], errorCode: '"NOT_FOUND"', errorMessage: 'a string' })
  t.match(shapeOf(400, error({})), { kind: 'error envelope, httpCode 404', errorCode: '(none)', errorMessage: '(none)' })
  t.match(shapeOf(404, error({ errorCode: 7, errorMessage: '' })), { errorCode: 'not a string: "7"', errorMessage: 'an empty string' })
  t.match(shapeOf(404, error({ errorMessage: null })), { errorMessage: 'null' })
  t.match(shapeOf(404, error({ errorMessage: 3 })), { errorMessage: 'a number' })
  t.match(shapeOf(404, error({ message: 'old' })), { errorMessage: '(none); "message" instead', extraMembers: [] }, 'an older message is said once')
  t.match(shapeOf(404, error({ errorMessage: 'new', message: 'old' })), { errorMessage: 'a string', extraMembers: ['result.message'] })
  const many = { result: { success: true, httpCode: 200, a: 1, b: 1, c: 1 }, content: [], d: 1, e: 1, f: 1 }
  t.strictSame(unruledDepartures('application/json;charset=UTF-8', body(many), text => text), ['envelope members the seed does not show: d, e, f, result.a, result.b, and 1 more'])
  const redact = tokenRedactor('sec-ret')
  t.strictSame(unruledDepartures(undefined, body({ result: { success: true, httpCode: 200, 'sec-ret': 1 }, content: [] }), redact), [
    'Content-Type (none), not application/json; charset=utf-8',
    'envelope members the seed does not show: result.[token]'
  ], 'a member named as the token is not printed')
  t.equal(shapeOf(404, error({ errorCode: 'sec-ret' }), redact).errorCode, '"[token]"')
})

t.test('bodies decode in the order their codings were applied; an empty one has nothing to decode', async t => {
  t.strictSame(await decodeBody(Buffer.alloc(0), 'gzip', 10), Buffer.alloc(0))
  t.equal((await decodeBody(gzipSync(gzipSync('twice')), 'gzip, identity, GZIP', 100)).toString(), 'twice')
  await t.rejects(decodeBody(gzipSync('0123456789'), 'gzip', 5), { name: 'BodyDecodingError', tooLarge: true, message: 'decoded (gzip)' })
})

t.test('sizes read in bytes, KiB or MiB', async t => {
  t.strictSame([1, 1023, 1024, 1536, 16 * 1024 * 1024, 1.25 * 1024 * 1024].map(formatBytes), ['1 byte', '1023 bytes', '1 KiB', '1.5 KiB', '16 MiB', '1.3 MiB'])
})
