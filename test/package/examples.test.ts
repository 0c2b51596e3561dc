import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
const example = (name: string) => fileURLToPath(new URL(`../../examples/${name}`, import.meta.url))

t.test('the README shows each example test exactly as it is in examples/', async t => {
  for (const name of ['tap.test.ts', 'node-test.test.ts']) {
    t.ok(readme.includes(readFileSync(example(name), 'utf8').trim()), `examples/${name} is in the README as is`)
  }
})

// tap runs examples/tap.test.ts itself; the node:test example runs here, as `node` would run it.
t.test('the node:test example passes', async t => {
  const child = spawn(process.execPath, [...process.execArgv, '--test-reporter=tap', example('node-test.test.ts')], { env: { ...process.env, FORCE_COLOR: '0' } })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', chunk => { output += chunk })
  child.stderr.setEncoding('utf8').on('data', chunk => { output += chunk })
  const [code] = await once(child, 'exit')
  t.equal(code, 0, 'it exits 0', { output })
  t.match(output, '# pass 3')
  t.match(output, '# fail 0')
})
