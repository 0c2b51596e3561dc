import t from 'tap'
import { AUTH, build, line, SAMPLE_DATA } from '../helpers/app.js'

const JSON_TYPE = 'application/json; charset=utf-8'

t.test('retrieve answers one line of a camera in the success envelope', async t => {
  const app = await build(t)
  const response = await app.inject({ url: '/nvr/v1/cameras/cam-1/counting_lines/line-2', headers: AUTH })
  t.equal(response.statusCode, 200)
  t.equal(response.headers['content-type'], JSON_TYPE)
  t.strictSame(response.json(), {
    result: { success: true, httpCode: 200 },
    content: SAMPLE_DATA.counting_lines?.[1]
  })
})

t.test('a line has exactly the ten fields of the spec, in the spec order', async t => {
  const app = await build(t)
  const response = await app.inject({ url: '/nvr/v1/cameras/cam-1/counting_lines/line-1', headers: AUTH })
  t.equal(response.body,
    '{"result":{"success":true,"httpCode":200},"content":{"id":"line-1","camera_id":"cam-1","name":"Door",' +
    '"counting_line":"LINESTRING(192 540, 1728 540)","anchor":"POINT(960 420)","coalesce_entries":true,"class":"person",' +
    '"max_age":30,"created":"2024-05-01T08:30:00.000Z","updated":"2024-05-02T09:45:30.125Z"}}')
})

t.test('list answers the lines of a camera in fixture order', async t => {
  const app = await build(t)
  const response = await app.inject({ url: '/nvr/v1/cameras/cam-1/counting_lines', headers: AUTH })
  t.equal(response.statusCode, 200)
  t.equal(response.headers['content-type'], JSON_TYPE)
  t.strictSame(response.json(), {
    result: { success: true, httpCode: 200 },
    content: SAMPLE_DATA.counting_lines?.slice(0, 2)
  })
})

t.test('a known camera without lines lists an empty array', async t => {
  const app = await build(t)
  for (const camera of ['cam-empty', 'cam-2']) {
    const response = await app.inject({ url: `/nvr/v1/cameras/${camera}/counting_lines`, headers: AUTH })
    t.equal(response.statusCode, 200)
    t.equal(response.json().content.length, camera === 'cam-empty' ? 0 : 1)
  }
})

t.test('a trailing slash and query parameters change nothing', async t => {
  const app = await build(t)
  const plain = await app.inject({ url: '/nvr/v1/cameras/cam-1/counting_lines', headers: AUTH })
  for (const url of ['/nvr/v1/cameras/cam-1/counting_lines/', '/nvr/v1/cameras/cam-1/counting_lines?page=2&limit=1']) {
    const response = await app.inject({ url, headers: AUTH })
    t.equal(response.statusCode, 200, url)
    t.equal(response.body, plain.body, url)
  }
})

t.test('HEAD answers like GET without a body', async t => {
  const app = await build(t)
  const get = await app.inject({ url: '/nvr/v1/cameras/cam-1/counting_lines', headers: AUTH })
  const head = await app.inject({ method: 'HEAD', url: '/nvr/v1/cameras/cam-1/counting_lines', headers: AUTH })
  t.equal(head.statusCode, 200)
  t.equal(head.body, '')
  t.equal(head.headers['content-length'], get.headers['content-length'])
  t.equal(head.headers['content-type'], JSON_TYPE)
})

t.test('any Accept header is served JSON', async t => {
  const app = await build(t)
  for (const accept of ['text/html', 'application/xml', '*/*', 'image/png']) {
    const response = await app.inject({ url: '/nvr/v1/cameras/cam-1/counting_lines', headers: { ...AUTH, accept } })
    t.equal(response.statusCode, 200, accept)
    t.equal(response.headers['content-type'], JSON_TYPE, accept)
  }
})

t.test('ids are compared exactly after one percent-decoding', async t => {
  const app = await build(t, {
    data: {
      counting_lines: [
        line({ id: 'a/b', camera_id: 'site/cam 1' }),
        line({ id: 'x+y', camera_id: 'Cam-Ü' }),
        line({ id: '%41', camera_id: 'Cam-Ü' })
      ]
    }
  })
  const ok = async (url: string) => (await app.inject({ url, headers: AUTH })).statusCode
  t.equal(await ok('/nvr/v1/cameras/site%2Fcam%201/counting_lines/a%2Fb'), 200, '%2F decodes to a slash inside an id')
  t.equal(await ok('/nvr/v1/cameras/Cam-%C3%9C/counting_lines/x+y'), 200, 'plus is a literal plus')
  t.equal(await ok('/nvr/v1/cameras/Cam-%C3%9C/counting_lines/x%2By'), 200)
  t.equal(await ok('/nvr/v1/cameras/Cam-%C3%9C/counting_lines/x%20y'), 404, 'plus is not a space')
  t.equal(await ok('/nvr/v1/cameras/cam-%C3%BC/counting_lines'), 404, 'case-sensitive')
  t.equal(await ok('/nvr/v1/cameras/Cam-U%CC%88/counting_lines'), 404, 'no Unicode normalization')
  t.equal(await ok('/nvr/v1/cameras/Cam-%C3%9C/counting_lines/%2541'), 200, 'decoded once only')
  t.equal(await ok('/nvr/v1/cameras/Cam-%C3%9C/counting_lines/A'), 404)
})

t.test('the longest id a fixture may hold is reachable', async t => {
  const id = 'é/'.repeat(512)
  const app = await build(t, { data: { counting_lines: [line({ id, camera_id: id })] } })
  const encoded = encodeURIComponent(id)
  const response = await app.inject({ url: `/nvr/v1/cameras/${encoded}/counting_lines/${encoded}`, headers: AUTH })
  t.equal(response.statusCode, 200)
  t.equal(response.json().content.id, id)
})
