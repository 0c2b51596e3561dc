import { Validator } from '@seriousme/openapi-schema-validator'
import { ManualClock } from '../../src/util/clock.js'
import { Value } from '@sinclair/typebox/value'
import t from 'tap'
import { DataStore } from '../../src/data/data-store.js'
import { BUNDLED_FIXTURES, loadFixtures } from '../../src/data/fixtures.js'
import { datasetFromData } from '../../src/data/dataset.js'
import { componentName } from '../../src/openapi/document-app.js'
import { LINE_PATH, LIST_PATH } from '../../src/openapi/examples.js'
import {
  CountingLineEnvelopeSchema, CountingLineListEnvelopeSchema, CountingLineSchema, ErrorEnvelopeSchema, type FixtureData
} from '../../src/contract/schemas.js'
import { AUTH, build, line, SAMPLE_DATA } from '../helpers/app.js'
import { buildControlled } from '../helpers/control.js'

// The document is untyped JSON, read by path.
type Json = any

const ERROR_STATUSES = ['400', '401', '403', '404', '405', '429', '431', '500', '503']
const ENVELOPES: Record<string, typeof CountingLineEnvelopeSchema | typeof CountingLineListEnvelopeSchema> = {
  [LIST_PATH]: CountingLineListEnvelopeSchema,
  [LINE_PATH]: CountingLineEnvelopeSchema
}

async function documentOf (t: Parameters<typeof build>[0], overrides: Parameters<typeof build>[1] = {}): Promise<Json> {
  const app = await build(t, overrides)
  const response = await app.inject('/openapi.json')
  t.equal(response.statusCode, 200)
  return response.json()
}

async function validate (document: Json): Promise<{ valid: boolean, errors?: unknown }> {
  const validator = new Validator()
  const result = await validator.validate(structuredClone(document))
  return { valid: result.valid, errors: result.errors }
}

const examplesOf = (operation: Json, status: string): Json =>
  operation.responses[status].content['application/json'].examples

t.test('the document is valid OpenAPI 3.1 for an independent validator, whatever the data', async t => {
  const datasets: Array<[string, FixtureData]> = [
    ['sample data', SAMPLE_DATA], ['cameras without lines', { cameras: [{ id: 'cam-1' }] }], ['no data at all', {}]
  ]
  for (const [name, data] of datasets) {
    const document = await documentOf(t, { data })
    t.equal(document.openapi, '3.1.0')
    t.strictSame(await validate(document), { valid: true, errors: undefined }, name)
  }
  const bundled = await documentOf(t, { store: new DataStore(await loadFixtures(BUNDLED_FIXTURES)) })
  t.strictSame(await validate(bundled), { valid: true, errors: undefined }, 'bundled fixtures')

  const broken = structuredClone(bundled)
  delete broken.paths[LIST_PATH].get.responses['200'].description
  t.equal((await validate(broken)).valid, false, 'the validator does find a missing response description')
})

t.test('every route and every status is in the document', async t => {
  const document = await documentOf(t)
  t.strictSame(Object.keys(document.paths), ['/healthz', LIST_PATH, LINE_PATH], 'catch-alls, 405 routes, docs and the document itself stay hidden')
  t.strictSame(Object.keys(document.paths['/healthz']), ['get'])
  const health = document.paths['/healthz'].get
  t.equal(health.operationId, 'checkHealth', 'every operation has an id, for client generators')
  t.strictSame(Object.keys(health.responses), ['200', '431'], 'only the header limit refuses a health check')
  t.strictSame(health.security, [], 'the health check says it needs no token')
  t.strictSame(examplesOf(health, '431'), examplesOf(document.paths[LIST_PATH].get, '431'))

  for (const [path, operationId, parameters] of [
    [LIST_PATH, 'listCountingLines', ['id']],
    [LINE_PATH, 'retrieveCountingLine', ['id', 'line_id']]
  ] as const) {
    t.strictSame(Object.keys(document.paths[path]), ['get'], `${path} has only GET`)
    const operation = document.paths[path].get
    t.equal(operation.operationId, operationId)
    t.strictSame(operation.security, [{ bearerAuth: [] }])
    t.strictSame(operation.parameters.map((parameter: Json) => [parameter.name, parameter.in, parameter.required]),
      parameters.map(name => [name, 'path', true]))
    t.strictSame(Object.keys(operation.responses), ['200', ...ERROR_STATUSES], `${operationId} lists every status`)
    const component = path === LIST_PATH ? 'CountingLineListEnvelope' : 'CountingLineEnvelope'
    t.equal(operation.responses['200'].content['application/json'].schema.$ref, `#/components/schemas/${component}`)
    for (const status of ERROR_STATUSES) {
      const response = operation.responses[status]
      t.equal(response.content['application/json'].schema.$ref, '#/components/schemas/ErrorEnvelope', `${operationId} ${status}`)
      t.not(response.description, 'Default Response', `${operationId} ${status} says when it happens`)
    }
    t.ok(operation.responses['401'].headers['WWW-Authenticate'])
    t.ok(operation.responses['405'].headers.Allow)
    t.ok(operation.responses['429'].headers['Retry-After'])
  }

  t.strictSame(Object.keys(document.components.schemas), ['CountingLine', 'CountingLineEnvelope', 'CountingLineListEnvelope', 'ErrorEnvelope'])
  t.strictSame(Object.keys(document.components.schemas.CountingLine.properties),
    ['id', 'camera_id', 'name', 'counting_line', 'anchor', 'coalesce_entries', 'class', 'max_age', 'created', 'updated'])
  for (const envelope of ['CountingLineEnvelope', 'CountingLineListEnvelope', 'ErrorEnvelope']) {
    t.equal(document.components.schemas[envelope].properties.result.properties.httpCode.type, 'integer', `${envelope} httpCode is an integer`)
  }
  const declaredTags = document.tags.map((tag: Json) => tag.name)
  t.strictSame(declaredTags, ['Health', 'Counting lines'])
  for (const operation of [health, document.paths[LIST_PATH].get, document.paths[LINE_PATH].get]) {
    t.ok(operation.description, `${operation.operationId} is described`)
    for (const tag of operation.tags) t.ok(declaredTags.includes(tag), `${operation.operationId} tag ${tag} is declared`)
  }
  t.match(document.info.license, { identifier: 'MIT' })
  t.match(document.components.securitySchemes.bearerAuth, { type: 'http', scheme: 'bearer' })
  t.strictSame(document.servers, [{ url: '/' }], 'relative, so the API page calls the origin that served it')
})

t.test('the examples come from the data being served', async t => {
  const document = await documentOf(t)
  const list = document.paths[LIST_PATH].get
  const retrieve = document.paths[LINE_PATH].get
  t.strictSame(list.parameters.map((parameter: Json) => parameter.example), ['cam-1'])
  t.strictSame(retrieve.parameters.map((parameter: Json) => parameter.example), ['cam-1', 'line-1'])
  t.strictSame(examplesOf(list, '200').servedData, {
    summary: 'Camera cam-1: 2 lines',
    value: { result: { success: true, httpCode: 200 }, content: SAMPLE_DATA.counting_lines?.slice(0, 2) }
  })
  t.strictSame(examplesOf(retrieve, '200').servedData.value.content, SAMPLE_DATA.counting_lines?.[0])
})

t.test('every example is what the API really answers, in the schema of its status', async t => {
  const app = await build(t)
  const document = (await app.inject('/openapi.json')).json()
  const references = [CountingLineSchema]
  for (const path of [LIST_PATH, LINE_PATH]) {
    const operation = document.paths[path].get
    const url = path.replace('{id}', 'cam-1').replace('{line_id}', 'line-1')
    t.strictSame((await app.inject({ url, headers: AUTH })).json(), examplesOf(operation, '200').servedData.value, `${url} answers its example`)
    t.ok(Value.Check(ENVELOPES[path] as typeof CountingLineEnvelopeSchema, references, examplesOf(operation, '200').servedData.value))
    for (const status of ERROR_STATUSES) {
      for (const { value } of Object.values<Json>(examplesOf(operation, status))) {
        t.ok(Value.Check(ErrorEnvelopeSchema, value), `${path} ${status}`)
        t.equal(value.result.httpCode, Number(status))
      }
    }
  }

  const retrieve = document.paths[LINE_PATH].get
  const answers: Array<[string, Record<string, string>, Json]> = [
    ['/nvr/v1/cameras/unknown/counting_lines/line-1', AUTH, examplesOf(retrieve, '404').unknownCamera],
    ['/nvr/v1/cameras/cam-1/counting_lines/unknown', AUTH, examplesOf(retrieve, '404').unknownLine],
    ['/nvr/v1/cameras/cam-1/counting_lines/line-1', {}, examplesOf(retrieve, '401').noToken],
    ['/nvr/v1/cameras/cam-1/counting_lines/line-1', { authorization: 'Bearer' }, examplesOf(retrieve, '401').malformedHeader],
    ['/nvr/v1/cameras/cam-1/counting_lines/line-1', { authorization: 'Bearer wrong' }, examplesOf(retrieve, '401').tokenRefused],
    ['/nvr/v1/cameras/%E0%A4%A/counting_lines/line-1', AUTH, examplesOf(retrieve, '400').malformedPath]
  ]
  for (const [url, headers, example] of answers) {
    t.strictSame((await app.inject({ url, headers })).json(), example.value, example.summary)
  }
  const post = await app.inject({ method: 'POST', url: '/nvr/v1/cameras/cam-1/counting_lines/line-1', headers: AUTH })
  t.strictSame(post.json(), examplesOf(retrieve, '405').otherMethod.value)

  // A scoped token outside its scope, and a token past the rate limit.
  const limited = await buildControlled(t, { scopedTokens: [{ token: 'scoped', cameras: ['cam-empty'] }], rateLimit: 1, clock: new ManualClock(0) })
  const scoped = { authorization: 'Bearer scoped' }
  for (const path of [LIST_PATH, LINE_PATH]) {
    const url = path.replace('{id}', 'cam-1').replace('{line_id}', 'line-1')
    limited.control.setRateLimit(1)
    t.strictSame((await limited.app.inject({ url, headers: scoped })).json(), examplesOf(document.paths[path].get, '403').outsideScope.value, `${url}: 403`)
    const tooMany = await limited.app.inject({ url, headers: scoped })
    t.strictSame(tooMany.json(), examplesOf(document.paths[path].get, '429').rateLimited.value, `${url}: 429`)
    t.equal(tooMany.headers['retry-after'], '1')
  }
})

t.test('the /healthz example is the plain mock\'s answer: contractViolations, which only a proxy sends, stays an optional field', async t => {
  const store = new DataStore(datasetFromData(SAMPLE_DATA))
  const app = await build(t, { store })
  const health = (await app.inject('/openapi.json')).json().paths['/healthz'].get.responses['200'].content['application/json']
  t.strictSame(health.examples, { servedData: { summary: 'The counts of the data served now', value: (await app.inject('/healthz')).json() } })
  t.strictSame(health.examples.servedData.value, { status: 'ok', cameras: 3, countingLines: 3 })
  t.ok(health.schema.properties.contractViolations, 'the field is documented')
  t.notOk(health.schema.required.includes('contractViolations'), 'as optional')
  store.replace(datasetFromData({ cameras: [{ id: 'cam-yard' }] }))
  t.strictSame((await app.inject('/openapi.json')).json().paths['/healthz'].get.responses['200'].content['application/json'].examples.servedData.value, { status: 'ok', cameras: 1, countingLines: 0 }, 'it follows the data')
})

t.test('examples follow the data when it is replaced at run time, here and on the API page', async t => {
  const store = new DataStore(datasetFromData(SAMPLE_DATA))
  const app = await build(t, { store })
  const first = (await app.inject('/openapi.json')).json()
  t.equal(first.paths[LINE_PATH].get.parameters[1].example, 'line-1')

  store.replace(datasetFromData({ counting_lines: [line({ id: 'gate-7', camera_id: 'cam-yard' })] }))
  for (const url of ['/openapi.json', '/docs/json']) {
    const document = (await app.inject(url)).json()
    t.strictSame(document.paths[LINE_PATH].get.parameters.map((parameter: Json) => parameter.example), ['cam-yard', 'gate-7'], url)
    t.equal(examplesOf(document.paths[LIST_PATH].get, '200').servedData.summary, 'Camera cam-yard: 1 line')
  }
  t.match((await app.inject('/docs/yaml')).body, /example: gate-7/)

  store.reset()
  t.strictSame((await app.inject('/openapi.json')).json(), first, 'back to the first data, back to the first examples')
})

t.test('a long list is shown by its first three lines; without lines only the list has examples', async t => {
  const lines = ['a', 'b', 'c', 'd', 'e'].map(id => line({ id }))
  const long = await documentOf(t, { data: { counting_lines: lines } })
  const listExample = examplesOf(long.paths[LIST_PATH].get, '200').servedData
  t.equal(listExample.summary, 'Camera cam-1: the first 3 of 5 lines')
  t.strictSame(listExample.value.content, lines.slice(0, 3))

  const noLines = await documentOf(t, { data: { cameras: [{ id: 'cam-empty' }] } })
  t.equal(noLines.paths[LIST_PATH].get.parameters[0].example, 'cam-empty')
  t.strictSame(examplesOf(noLines.paths[LIST_PATH].get, '200').servedData.value.content, [])
  t.equal(noLines.paths[LINE_PATH].get.parameters[0].example, undefined)
  t.equal(noLines.paths[LINE_PATH].get.responses['200'].content['application/json'].examples, undefined)

  const empty = await documentOf(t, { data: {} })
  t.equal(empty.paths[LIST_PATH].get.parameters[0].example, undefined)
  t.ok(examplesOf(empty.paths[LINE_PATH].get, '404').unknownLine, 'error examples need no data')
})

t.test('a schema without $id keeps a numbered component name', async t => {
  t.equal(componentName({ $id: 'CountingLine' }, '', '', 0), 'CountingLine')
  t.equal(componentName({}, '', '', 3), 'def-3')
})

// @fastify/swagger and its YAML writer are a twentieth of a start: the document is made when first asked for.
t.test('the document is made at its first request, not at start, and once', async t => {
  const app = await build(t)
  t.notOk(app.hasDecorator('swagger'), 'the serving app has no swagger of its own')
  const [first, second] = await Promise.all([app.inject('/openapi.json'), app.inject('/openapi.json')])
  t.equal(first.statusCode, 200)
  t.equal(first.body, second.body)
  t.equal((await app.inject('/docs/json')).body, first.body, 'the API page gives the same document')
})
