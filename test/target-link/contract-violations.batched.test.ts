import t, { type Test } from 'tap'
import type { ServerResponse } from 'node:http'
import { verifyTarget } from '../../src/index.js'
import type { Violation } from '../../src/target-client/contract-check.js'
import { line } from '../helpers/app.js'
import { ok, send, startFakeTarget } from '../helpers/fake-target.js'

const TOKEN = 'target-token'
const LIST = (camera: string) => `GET /nvr/v1/cameras/${camera}/counting_lines`

/** A target whose lists and lines are given per path; anything else is a 404. */
async function startTarget (t: Test, answers: Record<string, (response: ServerResponse) => void>) {
  return startFakeTarget(t, (request, response) => {
    const answer = answers[request.url as string]
    if (answer === undefined || request.method !== 'GET') send(response, 404, { result: { success: false, httpCode: 404, message: 'no' }, content: null })
    else answer(response)
  })
}

function find (violations: Violation[], path: string): Violation | undefined {
  return violations.find(violation => violation.path === path)
}

t.test('every way a line breaks the contract is reported at its camera, line, request and JSON path', async t => {
  const good = line({ id: 'good' })
  const lines = [
    good,
    { ...line({ id: 'missing' }), name: undefined },
    { ...line({ id: 'extra' }), colour: 'red', 'a/b~c': 1 },
    line({ id: 'types', max_age: 1.5 as number, coalesce_entries: 'yes' as unknown as boolean, class: null as unknown as string }),
    line({ id: 'shape', created: '2024-05-01T08:30:00Z' }),
    line({ id: 'impossible', updated: '2024-02-30T08:30:00.000Z' }),
    line({ id: 'other-camera', camera_id: 'cam-2' }),
    line({ id: 'good' }),
    'not a line',
    line({ id: '' }),
    line({ id: 'changed' })
  ]
  const { url } = await startTarget(t, {
    '/nvr/v1/cameras/cam-1/counting_lines': response => send(response, 200, ok(lines)),
    '/nvr/v1/cameras/cam-1/counting_lines/good': response => send(response, 200, ok(good)),
    '/nvr/v1/cameras/cam-1/counting_lines/changed': response => send(response, 200, ok({ ...line({ id: 'changed', name: 'Other' }), max_age: undefined, extra: true })),
    '/nvr/v1/cameras/cam-1/counting_lines/types': response => send(response, 200, ok(lines[3])),
    '/nvr/v1/cameras/cam-1/counting_lines/extra': response => send(response, 200, ok(lines[2])),
    '/nvr/v1/cameras/cam-1/counting_lines/missing': response => send(response, 200, ok(JSON.parse(JSON.stringify(lines[1])))),
    '/nvr/v1/cameras/cam-1/counting_lines/shape': response => send(response, 200, ok(lines[4])),
    '/nvr/v1/cameras/cam-1/counting_lines/impossible': response => send(response, 200, ok(lines[5])),
    '/nvr/v1/cameras/cam-1/counting_lines/other-camera': response => send(response, 200, ok(lines[6]))
  })
  const { violations } = await verifyTarget({ target: url, token: TOKEN, cameras: ['cam-1'] })
  const at = (path: string) => find(violations, path)
  t.match(at('/content/1/name'), { camera: 'cam-1', line: 'missing', request: LIST('cam-1'), problem: 'is missing' })
  t.match(at('/content/2/colour'), { line: 'extra', problem: /extra field/ })
  t.match(at('/content/2/a~1b~0c'), { line: 'extra', problem: /extra field/ }, 'a field name is escaped in the pointer')
  t.match(at('/content/3/max_age'), { problem: 'must be a whole number, not 1.5' })
  t.match(at('/content/3/coalesce_entries'), { problem: 'must be true or false, not "yes"' })
  t.match(at('/content/3/class'), { problem: 'must be a string, not null' })
  t.match(at('/content/4/created'), { line: 'shape', problem: /must be a UTC timestamp like/ })
  t.match(at('/content/5/updated'), { line: 'impossible', problem: '"2024-02-30T08:30:00.000Z" is not a real date and time' })
  t.match(at('/content/6/camera_id'), { line: 'other-camera', problem: 'must be the camera asked for, "cam-1", not "cam-2"' })
  t.match(at('/content/7/id'), { line: 'good', problem: 'repeats the id of /content/0: ids must be unique within a camera' })
  t.match(at('/content/8'), { line: '#8', problem: 'must be a counting line object, not a string' })
  t.match(at('/content/9/id'), { line: '#9', problem: /must not be empty/ })
  const retrieve = LIST('cam-1') + '/changed'
  t.match(violations.filter(violation => violation.request === retrieve), [
    { line: 'changed', path: '/content/name', problem: 'differs from the list: "Door" there, "Other" here' },
    { line: 'changed', path: '/content/max_age', problem: 'is missing here, but in the list' },
    { line: 'changed', path: '/content/extra', problem: 'is here, but not in the list' }
  ])
  t.notOk(violations.some(violation => violation.line === 'good' && violation.request.endsWith('/good')), 'a line answered as listed is fine')
  t.notOk(violations.some(violation => violation.path.startsWith('/content/0')), 'the first good line has nothing')
})

t.test('every way an answer or its envelope breaks the contract is reported', async t => {
  const camera = (id: string, answer: (response: ServerResponse) => void) => ({ [`/nvr/v1/cameras/${id}/counting_lines`]: answer })
  const { url } = await startTarget(t, {
    ...camera('html', response => send(response, 200, '<!DOCTYPE html><html>login\n</html>', { 'content-type': 'text/html' })),
    ...camera('empty', response => send(response, 200, '')),
    ...camera('array', response => send(response, 200, [])),
    ...camera('bad-result', response => send(response, 200, { result: { success: 'yes', httpCode: '200' }, content: [] })),
    ...camera('wrong-code', response => send(response, 200, { result: { success: true, httpCode: 201 }, content: [] })),
    ...camera('no-result', response => send(response, 200, { content: [] })),
    ...camera('result-array', response => send(response, 200, { result: [], content: [] })),
    ...camera('no-fields', response => send(response, 200, { result: {}, content: [] })),
    ...camera('no-content', response => send(response, 200, { result: { success: true, httpCode: 200 } })),
    ...camera('object-content', response => send(response, 200, ok({}))),
    ...camera('null-content', response => send(response, 200, ok(null))),
    ...camera('redirect', response => send(response, 302, '', { location: `https://login.example/?token=${TOKEN}` })),
    ...camera('redirect-bare', response => send(response, 307, '')),
    ...camera('server-error', response => send(response, 500, 'oops', { 'content-type': 'text/plain' })),
    ...camera('no-type', response => { response.writeHead(200); response.end('x') }),
    ...camera('one-line', response => send(response, 200, ok([line({ id: 'l', camera_id: 'one-line' })]))),
    '/nvr/v1/cameras/one-line/counting_lines/l': response => send(response, 200, ok([]))
  })
  const cameras = ['html', 'empty', 'array', 'bad-result', 'wrong-code', 'no-result', 'result-array', 'no-fields', 'no-content', 'object-content', 'null-content', 'redirect', 'redirect-bare', 'server-error', 'no-type', 'unknown', 'one-line']
  const { violations } = await verifyTarget({ target: url, token: TOKEN, cameras })
  const of = (camera: string) => violations.filter(violation => violation.camera === camera).map(({ path, problem }) => `${path} ${problem}`)
  t.strictSame(of('html'), [' the body is not JSON (text/html, starting <!DOCTYPE html><html>login </html>)'])
  t.strictSame(of('empty'), [' the body is not JSON (application/json; charset=utf-8, empty)'])
  t.strictSame(of('array'), [' the body must be the envelope object, not an array'])
  t.strictSame(of('bad-result'), ['/result/success must be true, not "yes"', '/result/httpCode must be a whole number, not "200"'])
  t.strictSame(of('wrong-code'), ['/result/httpCode must be 200, the status, not 201'])
  t.strictSame(of('no-result'), ['/result is missing'])
  t.strictSame(of('result-array'), ['/result must be an object, not an array'])
  t.strictSame(of('no-fields'), ['/result/success is missing', '/result/httpCode is missing'])
  t.strictSame(of('no-content'), ['/content is missing'])
  t.strictSame(of('object-content'), ['/content must be an array of counting lines, not an object'])
  t.strictSame(of('null-content'), ['/content must be an array of counting lines, not null'])
  t.strictSame(of('redirect'), [' answered 302, a redirect to https://login.example/?token=[token], not 200 (redirects are not followed)'], 'the token is never quoted')
  t.strictSame(of('redirect-bare'), [' answered 307, a redirect, not 200 (redirects are not followed)'])
  t.strictSame(of('server-error'), [' answered 500, not 200 (text/plain, starting oops)'], 'a body that is not JSON is shown with its type and first characters')
  t.strictSame(of('no-type'), [' the body is not JSON (no Content-Type, starting x)'])
  t.strictSame(of('unknown'), [' answered 404, not 200: no'])
  t.strictSame(of('one-line'), ['/content must be a counting line object, not an array'])
  t.equal(violations.find(violation => violation.camera === 'one-line')?.line, 'l')
})

t.test('a long value is quoted only in part', async t => {
  const long = 'x'.repeat(200)
  const { url } = await startTarget(t, {
    '/nvr/v1/cameras/c/counting_lines': response => send(response, 200, ok([{ ...line({ camera_id: 'c' }), max_age: long }]))
  })
  const { violations } = await verifyTarget({ target: url, token: TOKEN, cameras: ['c'] })
  t.equal(violations[0]?.problem, `must be a whole number, not "${'x'.repeat(59)}…`)
})
