import { Type } from '@sinclair/typebox'
import t from 'tap'
import { checkWithTypeBox } from '../../src/device-api/param-check.js'

t.test('route parameters are checked by the TypeBox schema, with the first problem as the error', async t => {
  const validate = checkWithTypeBox({ schema: Type.Object({ id: Type.String({ minLength: 2 }) }), method: 'GET', url: '/', httpPart: 'params' })
  t.equal(validate({ id: 'ab' }), true)
  const refused = validate({ id: 'a' }) as { error: Error }
  t.match(refused.error.message, /^\/id .*2/)
})
