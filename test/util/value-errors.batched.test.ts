import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Type } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import t from 'tap'
import { listValueProblems, patternRule, quoteJson } from '../../src/util/value-errors.js'
import { TOKEN_RULE } from '../../src/util/token-characters.js'
import { DeviceNameSchema } from '../../src/config/device-settings.js'
import { ShardSchema } from '../../src/config/shard.js'
import { ScopedTokensSchema, TimestampSchema, TokenSchema } from '../../src/contract/schemas.js'

const SRC = fileURLToPath(new URL('../../src/', import.meta.url))

t.test('every patterned string is told its rule in words, never its regular expression', async t => {
  for (const schema of [DeviceNameSchema, ShardSchema, TimestampSchema, TokenSchema]) {
    const rule = patternRule(schema)
    t.match(rule, /^must /, rule)
    t.notMatch(rule, schema.pattern as string)
  }
  // Each Type.String with a pattern in src/ is a token's, a timestamp's, or states its patternRule.
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter(file => file.endsWith('.ts'))
  const patterned = files.flatMap(file => [...readFileSync(join(SRC, file), 'utf8').matchAll(/Type\.String\(\{[^}]*\bpattern:[^}]*\}/g)].map(([text]) => ({ file, text })))
  t.equal(patterned.length, 4, 'the four above')
  for (const { file, text } of patterned) t.match(text, /patternRule:|TOKEN_PATTERN|TIMESTAMP_PATTERN/, file)
})

t.test('a wrong value is told what it must be and what it was, cut to one short line, never a token', async t => {
  const problems = (schema: Parameters<typeof TypeCompiler.Compile>[0], value: unknown) => listValueProblems(TypeCompiler.Compile(schema), value)
  t.strictSame(problems(Type.Integer({ minimum: 1, maximum: 9 }), 'fast'), [{ path: '', message: 'must be a whole number from 1 to 9, not "fast"' }])
  t.strictSame(problems(Type.Integer(), 'x'.repeat(100)), [{ path: '', message: `must be a whole number, not "${'x'.repeat(59)}…` }], 'cut at 60 characters')
  // A token's place: the value is never quoted, whether it is under a token's key or where the schema holds one.
  const secret = 'secret-token-1'
  t.strictSame(problems(Type.Object({ tokens: Type.Array(Type.Integer()) }), { tokens: [secret] }), [{ path: '/tokens/0', message: 'must be a whole number' }])
  t.strictSame(problems(ScopedTokensSchema, secret), [{ path: '', message: 'must be an array' }], 'scoped tokens given as a string')
  t.strictSame(problems(ScopedTokensSchema, { list: [secret] }), [{ path: '', message: 'must be an array' }], 'or as an object holding one')
  t.strictSame(problems(ScopedTokensSchema, [{ token: 'has space', cameras: [] }]), [{ path: '/0/token', message: TOKEN_RULE }])
  // What cannot be a token is quoted: a number, null, an object holding no string (even one that holds itself).
  t.strictSame(problems(ScopedTokensSchema, 5), [{ path: '', message: 'must be an array, not 5' }])
  const cyclic: Record<string, unknown> = {}
  cyclic.self = cyclic
  t.strictSame(problems(ScopedTokensSchema, cyclic), [{ path: '', message: 'must be an array, not [object Object]' }])
})

t.test('a value JSON has no form for is quoted as text', async t => {
  t.equal(quoteJson({ a: [1, 'b'] }), '{"a":[1,"b"]}')
  t.equal(quoteJson(undefined), 'undefined')
  t.equal(quoteJson(10n), '10')
})
