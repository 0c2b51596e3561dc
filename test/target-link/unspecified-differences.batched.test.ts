import t from 'tap'
import { verifyTarget } from '../../src/index.js'
import { renderJunit } from '../../src/target-link/report-junit.js'
import { renderReport } from '../../src/target-link/report-text.js'
import { line } from '../helpers/app.js'
import { mockLikeTarget, send } from '../helpers/fake-target.js'

const TOKEN = 'target-token'
const DATA = {
  cameras: [{ id: 'cam-1' }, { id: 'cam-2' }],
  counting_lines: [line(), line({ id: 'line-9', camera_id: 'cam-2' })]
}

t.test('where the target answers an unspecified case otherwise, the case is listed with both answers', async t => {
  const { url, requests } = await mockLikeTarget(t, DATA, TOKEN, (request, response) => {
    const auth = request.headers.authorization
    if (auth !== undefined && auth.startsWith('Bearer ') && auth !== `Bearer ${TOKEN}` && auth !== 'Bearer') {
      send(response, 403, { result: { success: false, httpCode: 403, message: 'forbidden' }, content: null })
      return true
    }
    if (auth === undefined && request.method === 'GET') {
      send(response, 401, { result: { success: false, httpCode: 401, message: 'no' }, content: null })
      return true
    }
    if (request.url?.includes('no-such-camera') === true && !request.url.includes('no-such-line')) {
      send(response, 404, '<html>Not Found</html>', { 'content-type': 'text/html' })
      return true
    }
    if (request.method === 'DELETE') {
      send(response, 405, { result: { success: false, httpCode: 400, message: 'no' }, content: null }, { allow: 'GET' })
      return true
    }
    if (request.method === 'PUT') {
      send(response, 200, { anything: true })
      return true
    }
    if (request.url?.endsWith('/line-9') === true) {
      send(response, 200, { result: { success: true, httpCode: 200 }, content: line({ id: 'line-9', camera_id: 'cam-2' }) })
      return true
    }
    if (request.method === 'HEAD') {
      request.socket.destroy()
      return true
    }
    return false
  })
  const report = await verifyTarget({ target: url, token: TOKEN, cameras: ['cam-1', 'cam-2'] })
  t.strictSame(report.violations, [])
  const byCase = Object.fromEntries(report.differences.map(difference => [difference.case, difference]))
  t.strictSame(Object.keys(byCase).sort(), ['DELETE on the list', 'HEAD', 'PUT on the list', 'line id of another camera', 'no Authorization header', 'unknown camera, list', 'wrong token'])
  t.match(byCase['wrong token'], {
    request: 'GET /nvr/v1/cameras/cam-1/counting_lines',
    device: { status: 403, headers: { 'content-type': 'application/json; charset=utf-8' }, envelope: 'error envelope' },
    mock: { status: 401, headers: { 'www-authenticate': 'Bearer realm="mock-nvr", error="invalid_token"' }, envelope: 'error envelope' }
  })
  t.notOk('www-authenticate' in (byCase['no Authorization header']?.device.headers ?? {}), 'a missing WWW-Authenticate is a difference')
  t.match(byCase['unknown camera, list']?.device, { status: 404, envelope: 'not JSON: "<html>Not Found</html>"', headers: { 'content-type': 'text/html' } })
  t.match(byCase['wrong token'], { device: { errorCode: '(none)', errorMessage: '(none); "message" instead' }, mock: { errorCode: '"TOKEN_REFUSED"', errorMessage: 'a string' } }, 'the error members are compared, and an older "message" is named')
  t.match(byCase['DELETE on the list']?.device, { status: 405, envelope: 'error envelope, httpCode 400', headers: { allow: 'GET' } })
  t.match(byCase['PUT on the list']?.device, { status: 200, envelope: 'other JSON' })
  t.match(byCase['line id of another camera'], { request: 'GET /nvr/v1/cameras/cam-1/counting_lines/line-9', device: { status: 200, envelope: 'success envelope' }, mock: { status: 404 } })
  t.match(byCase.HEAD?.device, { status: null, envelope: /^no answer: the target closed the connection/ })
  t.match(renderJunit(report), 'device: 403, error envelope; errorCode: (none); errorMessage: (none); &quot;message&quot; instead', 'the JUnit report names the error members too')
  const wrong = requests.find(request => request.headers.authorization?.startsWith('Bearer ') === true && request.headers.authorization !== `Bearer ${TOKEN}`)
  t.notMatch(wrong?.headers.authorization ?? '', TOKEN, 'the wrong token is not made from the real one')
})

t.test('every unspecified case is asked as it says, and listed when the target answers it otherwise', async t => {
  const reads = new Set(['/nvr/v1/cameras/cam-1/counting_lines', '/nvr/v1/cameras/cam-2/counting_lines', '/nvr/v1/cameras/cam-1/counting_lines/line-1', '/nvr/v1/cameras/cam-2/counting_lines/line-9'])
  // A target that answers the reads as mock-nvr does, and anything else with 418: every case then differs.
  const { url, requests } = await mockLikeTarget(t, DATA, TOKEN, (request, response) => {
    if (request.method === 'GET' && request.headers.authorization === `Bearer ${TOKEN}` && reads.has(request.url as string)) return false
    send(response, 418, 'teapot', { 'content-type': 'text/plain' })
    return true
  })
  const report = await verifyTarget({ target: url, token: TOKEN, cameras: ['cam-1', 'cam-2'] })
  t.equal(report.probedCamera, 'cam-1')
  t.strictSame(report.differences.map(difference => difference.case), [
    'no Authorization header', 'another scheme (Basic)', 'empty bearer token', 'wrong token', 'unknown camera, list', 'unknown camera, retrieve',
    'unknown line', 'line id of another camera', 'POST on the list', 'PUT on the list', 'DELETE on the list', 'plain OPTIONS', 'CORS preflight',
    'HEAD', 'trailing slash', 'query string', 'malformed percent-encoding'
  ])
  t.ok(report.differences.every(difference => difference.device.status === 418 && difference.device.envelope === (difference.case === 'HEAD' ? 'empty' : 'not JSON: "teapot"')))
  const list = '/nvr/v1/cameras/cam-1/counting_lines'
  const asked = requests.slice(reads.size).map(request => ({ method: request.method, url: request.url, ...request.headers }))
  t.match(asked, [
    { method: 'GET', url: list, authorization: undefined },
    { method: 'GET', url: list, authorization: /^Basic [A-Za-z0-9+/]+=*$/ },
    { method: 'GET', url: list, authorization: 'Bearer' },
    { method: 'GET', url: list, authorization: /^Bearer [\w-]{20,}$/ },
    { method: 'GET', url: /^\/nvr\/v1\/cameras\/no-such-camera-[0-9a-f]{12}\/counting_lines$/, authorization: `Bearer ${TOKEN}` },
    { method: 'GET', url: /^\/nvr\/v1\/cameras\/no-such-camera-[0-9a-f]{12}\/counting_lines\/no-such-line-[0-9a-f]{12}$/ },
    { method: 'GET', url: /^\/nvr\/v1\/cameras\/cam-1\/counting_lines\/no-such-line-[0-9a-f]{12}$/ },
    { method: 'GET', url: `${list}/line-9` },
    { method: 'POST', url: list, authorization: `Bearer ${TOKEN}` },
    { method: 'PUT', url: list },
    { method: 'DELETE', url: list },
    { method: 'OPTIONS', url: list, origin: undefined, authorization: `Bearer ${TOKEN}` },
    { method: 'OPTIONS', url: list, origin: 'http://localhost:5173', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization', authorization: undefined },
    { method: 'HEAD', url: list },
    { method: 'GET', url: `${list}/` },
    { method: 'GET', url: `${list}?limit=1&offset=0` },
    { method: 'GET', url: '/nvr/v1/cameras/%E0%A4%A/counting_lines' }
  ])
  t.equal(asked.length, 17)

  const again = await verifyTarget({ target: url, token: TOKEN, cameras: ['cam-1', 'cam-2'] })
  const wrongTokens = [report, again].map(run => run.differences.find(difference => difference.case === 'wrong token'))
  t.ok(wrongTokens.every(difference => difference !== undefined))
  const unknownCameras = [report, again].map(run => run.differences.find(difference => difference.case === 'unknown camera, list')?.request)
  t.not(unknownCameras[0], unknownCameras[1], 'the probing ids are new on every run')
  const sentTokens = requests.filter(request => /^Bearer [\w-]{20,}$/.test(request.headers.authorization ?? '') && request.headers.authorization !== `Bearer ${TOKEN}`).map(request => request.headers.authorization)
  t.equal(new Set(sentTokens).size, 2, 'and so is the wrong token')
})

t.test('no camera that answers its list: the unspecified cases are not compared, and the report says so', async t => {
  const { url } = await mockLikeTarget(t, DATA, 'another-token')
  const report = await verifyTarget({ target: url, token: TOKEN, cameras: ['cam-1'] })
  t.equal(report.violations.length, 1)
  t.strictSame(report.differences, [])
  t.equal(report.probedCamera, null)
  const text = renderReport(report)
  t.match(text, '\nUnspecified behaviour: not compared, since no camera answered its list\n')
  t.match(text, '\nFAIL: 1 violation, unspecified behaviour not compared\n')
  t.match(renderJunit(report), '<testsuite name="unspecified behaviour" tests="1" failures="0" skipped="1"')
  t.match(renderJunit(report), '<testcase classname="unspecified behaviour" name="not compared"><skipped message="no camera answered its list"/></testcase>')
})
