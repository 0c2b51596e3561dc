import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { patternRule } from '../../src/util/value-errors.js'
import { DeviceNameSchema } from '../../src/config/device-settings.js'
import { ShardSchema } from '../../src/config/shard.js'
import { TimestampSchema, TokenSchema } from '../../src/contract/schemas.js'

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
