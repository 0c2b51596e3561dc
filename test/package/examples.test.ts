import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { SOURCE_FLAGS } from '../helpers/cli-process.js'
import { untracked } from '../helpers/untracked.js'

const testing = readFileSync(new URL('../../docs/testing.md', import.meta.url), 'utf8')
const example = (name: string) => fileURLToPath(new URL(`../../examples/${name}`, import.meta.url))

t.test('docs/testing.md shows each example test exactly as it is in examples/', async t => {
  for (const name of ['tap.test.ts', 'node-test.test.ts', 'vitest/lines.test.ts', 'vitest/vitest.config.ts']) {
    t.ok(testing.includes(readFileSync(example(name), 'utf8').trim()), `examples/${name} is in docs/testing.md as is`)
  }
})

t.test('docs/fleet.md shows the fleet example exactly as it is in examples/', async t => {
  const page = readFileSync(new URL('../../docs/fleet.md', import.meta.url), 'utf8')
  t.ok(page.includes(readFileSync(example('vitest/fleet.test.ts'), 'utf8').trim()), 'examples/vitest/fleet.test.ts is in docs/fleet.md as is')
})

t.test('docs/frontend-testing.md shows the recipes as examples/ has them', async t => {
  const page = readFileSync(new URL('../../docs/frontend-testing.md', import.meta.url), 'utf8')
  const read = (name: string) => readFileSync(example(name), 'utf8')
  t.ok(page.includes(read('vitest-msw/quick-start.test.ts').trim()), 'the Vitest snippet is examples/vitest-msw/quick-start.test.ts as is')
  const spec = /\/\/ lobby\.spec\.ts\n([\s\S]*?)\n```/.exec(page)?.[1] ?? 'none'
  t.ok(read('playwright/lobby.spec.ts').includes(spec), 'the Playwright test shown is in examples/playwright/lobby.spec.ts')

  // The config shown is examples/playwright/playwright.config.ts with its defaults filled in.
  const config = read('playwright/playwright.config.ts')
  const found = (pattern: RegExp) => pattern.exec(config)?.[1] ?? `nothing matches ${String(pattern)}`
  const defaults: Record<string, string> = {
    NVR_PORT: found(/NVR_PORT \?\? (\d+)/),
    ADMIN_TOKEN: found(/ADMIN_TOKEN = '([^']+)'/),
    MOCK_NVR: found(/NVR_COMMAND \?\? '([^']+)'/)
  }
  const filled = (template: string) => template.replace(/\$\{(\w+)\}/g, (_, name: string) => defaults[name] ?? name)
  t.match(page, `command: '${filled(found(/command: `(\$\{MOCK_NVR\}[^`]*)`/))}'`)
  t.match(page, `url: '${filled(found(/url: `([^`]*\/healthz)`/))}'`)
  t.match(page, `executablePath: '${found(/CHROMIUM_PATH \?\? '([^']+)'/)}'`)
})

// tap runs examples/tap.test.ts itself; the node:test example runs here, as `node` would run it.
t.test('the node:test example passes', async t => {
  // Outside the runner's coverage: what the example runs of src/ the suite covers anyway.
  const child = spawn(...untracked(process.execPath, [...SOURCE_FLAGS, '--test-reporter=tap', example('node-test.test.ts')]), { env: { ...process.env, FORCE_COLOR: '0' } })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', chunk => { output += chunk })
  child.stderr.setEncoding('utf8').on('data', chunk => { output += chunk })
  const [code] = await once(child, 'exit')
  t.equal(code, 0, 'it exits 0', { output })
  t.match(output, '# pass 3')
  t.match(output, '# fail 0')
})

// Vitest runs its example on the source (test/vitest-examples.config.ts), without tap's coverage collection:
// Vite's transformed modules are not the files c8 measures.
t.test('the Vitest example passes', async t => {
  const { NODE_V8_COVERAGE: _coverage, ...env } = process.env
  const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url))
  const config = fileURLToPath(new URL('vitest-examples.config.ts', import.meta.url))
  const child = spawn(...untracked(process.execPath, [vitest, 'run', '--config', config]), { env: { ...env, FORCE_COLOR: '0', CI: '1' } })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', chunk => { output += chunk })
  child.stderr.setEncoding('utf8').on('data', chunk => { output += chunk })
  const [code] = await once(child, 'exit')
  t.equal(code, 0, 'it exits 0', { output })
  t.match(output, /Tests\s+4 passed \(4\)/)
})
