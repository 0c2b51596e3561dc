import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import Fastify from 'fastify'
import t, { type Test } from 'tap'
import { buildApp } from '../../src/app/build-app.js'
import { TokenPolicy } from '../../src/wire/token-policy.js'
import { CorsPolicy } from '../../src/wire/cors.js'
import { DataStore } from '../../src/data/data-store.js'
import { BUNDLED_FIXTURES, loadFixtures } from '../../src/data/fixtures.js'
import { datasetFromData, type Dataset } from '../../src/data/dataset.js'
import { generateFixtureData } from '../../src/data/generate.js'
import { CountingLineEnvelopeSchema, CountingLineListEnvelopeSchema, CountingLineSchema, type CountingLine } from '../../src/contract/schemas.js'
import { AUTH, line, SAMPLE_DATA, TOKEN } from '../helpers/app.js'

// Strings a serializer has to escape, and characters of two, three and four bytes in UTF-8.
const AWKWARD_DATA = {
  cameras: [{ id: 'cam-empty' }],
  counting_lines: [
    line({ id: 'quote "and" back\\slash', name: 'Tab\there, new\nline, \u0001 control' }),
    line({ id: 'line/with%2Fslash', name: 'Café ünïcode 東京 🚪', class: 'pérson' }),
    line({ id: '東京-1', camera_id: 'カメラ', name: '\u2028 and \u2029 separators', counting_line: '</script>' }),
    line({ id: 'line-2', camera_id: 'カメラ', name: 'after multibyte', max_age: 0, coalesce_entries: false })
  ]
}

/** The obvious implementation: objects returned and serialized by Fastify from the response schemas. */
async function schemaServer (t: Test, dataset: Dataset) {
  const app = Fastify().withTypeProvider<TypeBoxTypeProvider>()
  for (const schema of [CountingLineSchema, CountingLineEnvelopeSchema, CountingLineListEnvelopeSchema]) app.addSchema(schema)
  const result = { success: true as const, httpCode: 200 as const }
  const linesOf = (cameraId: string) => dataset.lines.filter(each => each.camera_id === cameraId)
  app.get('/cameras/:id/counting_lines', {
    schema: { params: Type.Object({ id: Type.String() }), response: { 200: Type.Ref(CountingLineListEnvelopeSchema) } }
  }, async request => ({ result, content: linesOf(request.params.id) }))
  app.get('/cameras/:id/counting_lines/:line_id', {
    schema: { params: Type.Object({ id: Type.String(), line_id: Type.String() }), response: { 200: Type.Ref(CountingLineEnvelopeSchema) } }
  }, async request => ({ result, content: linesOf(request.params.id).find(each => each.id === request.params.line_id) as CountingLine }))
  t.teardown(() => app.close())
  return app
}

async function compareEveryRoute (t: Test, dataset: Dataset) {
  const mock = await buildApp({ store: new DataStore(dataset), tokens: new TokenPolicy([TOKEN]), cors: new CorsPolicy(), maxHeaderSize: 65536 })
  t.teardown(() => mock.close())
  const reference = await schemaServer(t, dataset)
  const paths = dataset.cameraIds.flatMap(cameraId => {
    const camera = `/cameras/${encodeURIComponent(cameraId)}/counting_lines`
    return [camera, ...dataset.lines.filter(each => each.camera_id === cameraId).map(each => `${camera}/${encodeURIComponent(each.id)}`)]
  })
  for (const path of paths) {
    const expected = await reference.inject({ url: path })
    const served = await mock.inject({ url: `/nvr/v1${path}`, headers: AUTH })
    const head = await mock.inject({ method: 'HEAD', url: `/nvr/v1${path}`, headers: AUTH })
    t.equal(expected.statusCode, 200, path)
    t.equal(served.statusCode, 200, path)
    t.ok(served.rawPayload.equals(expected.rawPayload), `${path}: the same bytes as the schema serializer's`)
    t.equal(served.headers['content-length'], String(expected.rawPayload.length), path)
    t.equal(served.headers['content-type'], expected.headers['content-type'])
    t.strictSame([head.statusCode, head.body, head.headers['content-length'], head.headers['content-type']],
      [200, '', served.headers['content-length'], served.headers['content-type']], `HEAD ${path}`)
  }
}

t.test('every route serves exactly the bytes the response schema would produce from the objects', async t => {
  const datasets: Array<[string, Dataset]> = [
    ['the bundled fixtures', await loadFixtures(BUNDLED_FIXTURES)],
    ['the test sample', datasetFromData(SAMPLE_DATA)],
    ['escapes and multibyte characters', datasetFromData(AWKWARD_DATA)],
    ['generated data', datasetFromData(generateFixtureData({ cameras: 3, linesPerCamera: 40, seed: 5 }))]
  ]
  for (const [name, dataset] of datasets) await t.test(name, t => compareEveryRoute(t, dataset))
})

t.test('a replaced or reset dataset is served on the very next request', async t => {
  const store = new DataStore(datasetFromData(SAMPLE_DATA))
  const app = await buildApp({ store, tokens: new TokenPolicy([TOKEN]), cors: new CorsPolicy(), maxHeaderSize: 65536 })
  t.teardown(() => app.close())
  const get = async (url: string) => {
    const response = await app.inject({ url: `/nvr/v1/cameras/${url}`, headers: AUTH })
    return [response.statusCode, response.statusCode === 200 ? response.json().content : null]
  }
  t.strictSame(await get('cam-1/counting_lines/line-1'), [200, line()])

  store.replace(datasetFromData({ counting_lines: [line({ name: 'Renamed' }), line({ id: 'line-9', camera_id: 'cam-9' })] }))
  t.strictSame(await get('cam-1/counting_lines/line-1'), [200, line({ name: 'Renamed' })])
  t.strictSame(await get('cam-1/counting_lines'), [200, [line({ name: 'Renamed' })]])
  t.strictSame(await get('cam-1/counting_lines/line-2'), [404, null], 'a line gone is gone at once')
  t.strictSame(await get('cam-empty/counting_lines'), [404, null], 'a camera gone is gone at once')
  t.strictSame(await get('cam-9/counting_lines/line-9'), [200, line({ id: 'line-9', camera_id: 'cam-9' })])

  store.reset()
  t.strictSame(await get('cam-1/counting_lines/line-1'), [200, line()])
  t.strictSame(await get('cam-1/counting_lines/line-2'), [200, SAMPLE_DATA.counting_lines?.[1]])
  t.strictSame(await get('cam-9/counting_lines'), [404, null])
})
