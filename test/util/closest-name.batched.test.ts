import t from 'tap'
import { closestName, editDistance, unknownFieldMessage } from '../../src/util/closest-name.js'

t.test('the closest known name, when close enough to be what was meant', async t => {
  t.equal(editDistance('tokenz', 'tokens'), 1)
  t.equal(editDistance('healht', 'health'), 1, 'two neighbours swapped are one edit')
  t.equal(closestName('tokenz', ['devices', 'tokens', 'token']), 'tokens')
  t.equal(closestName('tkoenz', ['tokens']), 'tokens', 'two edits in a longer word')
  t.equal(closestName('pot', ['port']), 'port', 'one in a short word')
  t.equal(closestName('pt', ['port']), undefined, 'not two in a short word')
  t.equal(closestName('colour', ['cameras', 'counting_lines']), undefined)
  t.equal(closestName('anything', []), undefined)
})

t.test('an unknown key is told with the closest key its object takes, its JSON Pointer read back', async t => {
  const schema = { properties: { 'a/b': {}, max_age: {} } }
  t.equal(unknownFieldMessage('/counting_lines/0/maxage', schema), 'is not a known field; did you mean "max_age"?')
  t.equal(unknownFieldMessage('/a~1c', schema), 'is not a known field; did you mean "a/b"?')
  t.equal(unknownFieldMessage('/x~0', { properties: { 'x~': {} } }), 'is not a known field; did you mean "x~"?')
  t.equal(unknownFieldMessage('/colour', {}), 'is not a known field', 'an object of no named keys')
})
