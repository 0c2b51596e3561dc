import t from 'tap'
import { componentName } from '../src/openapi.js'
import { build } from './helper.js'

t.test('the OpenAPI document lists both operations and the CountingLine component', async t => {
  const app = await build(t)
  const response = await app.inject('/openapi.json')
  t.equal(response.statusCode, 200)
  const document = response.json()
  t.equal(document.openapi, '3.1.0')
  t.equal(document.paths['/nvr/v1/cameras/{id}/counting_lines'].get.operationId, 'listCountingLines')
  t.equal(document.paths['/nvr/v1/cameras/{id}/counting_lines/{line_id}'].get.operationId, 'retrieveCountingLine')
  t.strictSame(Object.keys(document.components.schemas.CountingLine.properties),
    ['id', 'camera_id', 'name', 'counting_line', 'anchor', 'coalesce_entries', 'class', 'max_age', 'created', 'updated'])
  t.strictSame(document.components.securitySchemes.bearerAuth, { type: 'http', scheme: 'bearer' })
  t.notOk(Object.keys(document.paths).some(path => path.includes('*')), 'catch-all routes stay hidden')
})

t.test('a schema without $id keeps a numbered component name', async t => {
  t.equal(componentName({ $id: 'CountingLine' }, '', '', 0), 'CountingLine')
  t.equal(componentName({}, '', '', 3), 'def-3')
})
