import { Type } from '@sinclair/typebox'
import t from 'tap'
import { compileWithTypeBox } from '../../src/wire/typebox-validator.js'

t.test('values are checked by the TypeBox schema, and refused with the error made of their problems', async t => {
  const compile = compileWithTypeBox(problems => new Error(problems.map(({ path, message }) => `${path} ${message}`).join('; ')))
  const validate = compile({ schema: Type.Object({ id: Type.String({ maxLength: 2 }) }), method: 'GET', url: '/', httpPart: 'params' })
  t.equal(validate({ id: 'ab' }), true)
  const refused = validate({ id: 'abc' }) as { error: Error }
  t.match(refused.error.message, /^\/id .*2/)
})
