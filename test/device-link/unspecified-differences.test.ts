import t from 'tap'
import { verifyDevice } from '../../src/index.js'
import { line } from '../helpers/app.js'
import { mockLikeDevice, send } from '../helpers/fake-device.js'

const TOKEN = 'device-token'
const DATA = {
  cameras: [{ id: 'cam-1' }, { id: 'cam-2' }],
  counting_lines: [line(), line({ id: 'line-9', camera_id: 'cam-2' })]
}

t.test('where the device answers an unspecified case otherwise, the case is listed with both answers', async t => {
  const { url, requests } = await mockLikeDevice(t, DATA, TOKEN, (request, response) => {
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
  const report = await verifyDevice({ target: url, token: TOKEN, cameras: ['cam-1', 'cam-2'] })
  t.strictSame(report.violations, [])
  const byCase = Object.fromEntries(report.differences.map(difference => [difference.case, difference]))
  t.strictSame(Object.keys(byCase).sort(), ['DELETE on the list', 'HEAD', 'PUT on the list', 'line id of another camera', 'no Authorization header', 'unknown camera, list', 'wrong token'])
  t.match(byCase['wrong token'], {
    request: 'GET /nvr/v1/cameras/cam-1/counting_lines',
    device: { status: 403, headers: { 'content-type': 'application/json; charset=utf-8' }, envelope: 'error envelope' },
    mock: { status: 401, headers: { 'www-authenticate': 'Bearer realm="mock-nvr", error="invalid_token"' }, envelope: 'error envelope' }
  })
  t.notOk('www-authenticate' in (byCase['no Authorization header']?.device.headers ?? {}), 'a missing WWW-Authenticate is a difference')
  t.match(byCase['unknown camera, list']?.device, { status: 404, envelope: 'not JSON', headers: { 'content-type': 'text/html' } })
  t.match(byCase['DELETE on the list']?.device, { status: 405, envelope: 'error envelope, httpCode 400', headers: { allow: 'GET' } })
  t.match(byCase['PUT on the list']?.device, { status: 200, envelope: 'other JSON' })
  t.match(byCase['line id of another camera'], { request: 'GET /nvr/v1/cameras/cam-1/counting_lines/line-9', device: { status: 200, envelope: 'success envelope' }, mock: { status: 404 } })
  t.match(byCase.HEAD?.device, { status: null, envelope: /^no answer: the device closed the connection/ })
  const wrong = requests.find(request => request.headers.authorization?.startsWith('Bearer ') === true && request.headers.authorization !== `Bearer ${TOKEN}`)
  t.notMatch(wrong?.headers.authorization ?? '', TOKEN, 'the wrong token is not made from the real one')
})

t.test('no camera that answers its list: the unspecified cases are not compared', async t => {
  const { url } = await mockLikeDevice(t, DATA, 'another-token')
  const report = await verifyDevice({ target: url, token: TOKEN, cameras: ['cam-1'] })
  t.equal(report.violations.length, 1)
  t.strictSame(report.differences, [])
})
