import { STATUS_CODES } from 'node:http'
import t from 'tap'
import { PlainTokenPolicy } from '../../src/contract/bearer.js'
import { contentOf, errorEnvelope, successEnvelope } from '../../src/contract/envelope.js'
import { hasMalformedEncoding, matchOperation, openApiPath, pathOf, readOperation, READ_METHODS_HEADER, RETRIEVE_OPERATION } from '../../src/contract/paths.js'
import { STATUS_TEXT } from '../../src/contract/status-text.js'
import { TokenPolicy } from '../../src/wire/token-policy.js'

t.test('the status texts are the ones node:http gives, for every error status Node knows', async t => {
  const nodeErrors = Object.entries(STATUS_CODES).filter(([code]) => Number(code) >= 400)
  t.strictSame(Object.entries(STATUS_TEXT), nodeErrors)
})

t.test('the plain token policy judges a header as the server\'s digest policy does', async t => {
  const headers = [undefined, '', 'Bearer', 'Bearer ', 'bearer good', 'Bearer  good', 'Bearer good extra', 'Basic abc', 'Bearer bad', 'Bearer\tgood', 'BEARER good']
  for (const tokens of [[], ['good']]) {
    const plain = new PlainTokenPolicy(tokens)
    const server = new TokenPolicy(tokens)
    t.equal(plain.acceptsAnyToken, server.acceptsAnyToken)
    for (const header of headers) t.equal(plain.judge(header), server.judge(header), `${JSON.stringify(header)} with ${JSON.stringify(tokens)}`)
  }
})

t.test('the envelopes', async t => {
  t.equal(successEnvelope({ a: 1 }, 201), '{"result":{"success":true,"httpCode":201},"content":{"a":1}}')
  t.equal(errorEnvelope({ statusCode: 404, code: 'GONE', message: 'gone' }), '{"result":{"success":false,"httpCode":404,"errorCode":"GONE","errorMessage":"gone"},"content":null}')
  t.strictSame(contentOf(successEnvelope([1, 2])), [1, 2])
})

t.test('the operation rows', async t => {
  t.equal(READ_METHODS_HEADER, 'GET, HEAD')
  t.equal(openApiPath(RETRIEVE_OPERATION), '/nvr/v1/cameras/{id}/counting_lines/{line_id}')
  t.strictSame(readOperation('/nvr/v1/cameras/a%2Fb/counting_lines/l%C3%A9/'), { row: RETRIEVE_OPERATION, params: { id: 'a/b', line_id: 'lé' } }, 'each segment decoded on its own, one trailing slash ignored')
  t.equal(readOperation('/nvr/v1/cameras/%zz/counting_lines'), undefined, 'a malformed segment matches nothing')
  t.equal(readOperation('/nvr/v1/elsewhere'), undefined)
  const decode = (segment: string) => decodeURIComponent(segment)
  t.strictSame(matchOperation('/nvr/v1/cameras/a%2Fb/counting_lines/', decode)?.params, { id: 'a/b' })
  t.strictSame(matchOperation('/nvr/v1/cameras/c/counting_lines//', decode)?.params, { id: 'c', line_id: '' })
  t.equal(matchOperation('/nvr/v1/cameras/c/counting%2Flines', decode), undefined)
  t.equal(matchOperation('/nvr/v1', decode), undefined)
  t.equal(matchOperation('/nvr/v2/cameras/c/counting_lines', decode), undefined)
  t.equal(pathOf('/'), '/')
  t.equal(pathOf('/a/?b'), '/a')
  t.equal(pathOf('/a#b'), '/a')
  t.equal(hasMalformedEncoding('/nvr/v1/%zz'), true)
  t.equal(hasMalformedEncoding('/nvr/v1/%C3'), true)
  t.equal(hasMalformedEncoding('/nvr/v1/a%20b?%zz'), false)
})
