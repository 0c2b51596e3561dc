import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { untracked } from '../test/helpers/untracked.js'
import type { Drift } from './drift.js'

// Runs each recipe in examples/ as its users would, and again against stand-ins that drifted from the contract
// (drift.ts), which the recipe must catch: every test of a recipe fails against one drift or another.
const root = fileURLToPath(new URL('../', import.meta.url))
// Two runs at a time, each on ports of its own: a run against a drift mostly waits out expectations.
t.jobs = 2
const bin = (path: string) => `${root}node_modules/${path}`
const TSX = `${process.execPath} --import tsx`

async function run (args: string[], env: Record<string, string> = {}): Promise<{ code: number | null, output: string }> {
  const child = spawn(...untracked(process.execPath, args), { cwd: root, env: { ...process.env, ...env, FORCE_COLOR: '0', CI: '1', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', chunk => { output += chunk })
  child.stderr.setEncoding('utf8').on('data', chunk => { output += chunk })
  const [code] = await once(child, 'exit') as [number | null]
  // eslint-disable-next-line no-control-regex
  return { code, output: output.replace(/\u001b\[[0-9;]*m/g, '') }
}

async function freePort (): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  server.close()
  await once(server, 'close')
  return port
}

const vitest = (drift?: Drift) => run([bin('vitest/vitest.mjs'), 'run', '--config', 'test-examples/vitest.config.ts'], drift === undefined ? {} : { DRIFT: drift })
/** The names of the tests Vitest marked failed. */
const vitestFailures = (output: string) => [...output.matchAll(/^ +× (.+?)(?: \d+ms)?$/gm)].map(match => match[1] as string).sort()

t.test('the Vitest + MSW recipe passes, in node and in jsdom', async t => {
  const { code, output } = await vitest()
  t.equal(code, 0, 'vitest exits 0', { output })
  t.match(output, /Test Files {2}3 passed \(3\)/)
  t.match(output, /Tests {2}7 passed \(7\)/)
})

const VITEST_REFUSALS = [
  'a missing token is a 401 in the error envelope',
  'an injected 503 tells the client when to retry',
  'asks to sign in again when the token is refused',
  'says the recorder is unavailable on a 503',
  'an injected 503 says when to retry'
]
const VITEST_FAILURES: Record<Drift, string[]> = {
  'no-envelope': [...VITEST_REFUSALS, 'lists the security exit camera\'s counting lines', 'shows the names of the lines'],
  'no-refusals': VITEST_REFUSALS
}
for (const [drift, failing] of Object.entries(VITEST_FAILURES) as Array<[Drift, string[]]>) {
  t.test(`the Vitest + MSW recipe fails against handlers that drifted: ${drift}`, async t => {
    const { code, output } = await vitest(drift)
    t.equal(code, 1, 'vitest exits 1', { output })
    t.strictSame(vitestFailures(output), [...failing].sort(), 'each test that checks what drifted fails', { output })
  })
}

const playwright = async (command: string, env: Record<string, string> = {}) => {
  const ports = { NVR_PORT: String(await freePort()), FRONTEND_PORT: String(await freePort()) }
  const output = await mkdtemp(join(tmpdir(), 'mock-nvr-playwright-'))
  try {
    return await run([bin('@playwright/test/cli.js'), 'test', '--config', 'examples/playwright/playwright.config.ts', '--output', output], { ...env, ...ports, NVR_COMMAND: command })
  } finally {
    await rm(output, { recursive: true, force: true })
  }
}
/** The names of the tests Playwright's list reporter marked failed. */
const playwrightFailures = (output: string) => [...output.matchAll(/✘ +\d+ \S+ › (.+?) \(\d/g)].map(match => match[1] as string).sort()

t.test('the Playwright recipe passes: each page state set through the admin API', async t => {
  const { code, output } = await playwright(`${TSX} ${root}src/cli.ts`)
  t.equal(code, 0, 'playwright test exits 0', { output })
  t.match(output, /4 passed/)
})

// Each failing test waits out its expectation and a new browser, so one drift, which every test must catch.
t.test('the Playwright recipe fails against a server that drifted: every test', async t => {
  const { code, output } = await playwright(`${TSX} ${root}test-examples/drifted-nvr.ts`, { DRIFT: 'no-envelope' })
  t.equal(code, 1, 'playwright test exits 1', { output })
  t.strictSame(playwrightFailures(output), [
    'asks to sign in again when the token has expired',
    'says when the recorder is unavailable',
    'shows a loading state while the list is slow',
    'shows the security exit\'s counting lines'
  ], 'each test fails', { output })
})
