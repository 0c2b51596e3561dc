import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { untracked } from '../test/helpers/untracked.js'

// Runs each recipe in examples/ as its users would, and runs it once more against a mock-nvr that breaks
// the contract, which the recipe must catch: a recipe that cannot fail proves nothing.
const root = fileURLToPath(new URL('../', import.meta.url))
const bin = (path: string) => `${root}node_modules/${path}`
const CLI = `${process.execPath} --import tsx ${root}src/cli.ts`

async function run (args: string[], env: Record<string, string> = {}): Promise<{ code: number | null, output: string }> {
  const child = spawn(...untracked(process.execPath, args), { cwd: root, env: { ...process.env, ...env, FORCE_COLOR: '0', CI: '1', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', chunk => { output += chunk })
  child.stderr.setEncoding('utf8').on('data', chunk => { output += chunk })
  const [code] = await once(child, 'exit') as [number | null]
  return { code, output }
}

async function freePort (): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  server.close()
  await once(server, 'close')
  return port
}

const vitest = (env: Record<string, string> = {}) => run([bin('vitest/vitest.mjs'), 'run', '--config', 'test-examples/vitest.config.ts'], env)

t.test('the Vitest + MSW recipe passes, in node and in jsdom', async t => {
  const { code, output } = await vitest()
  t.equal(code, 0, 'vitest exits 0', { output })
  t.match(output, /Test Files {2}2 passed \(2\)/)
  t.match(output, /Tests {2}6 passed \(6\)/)
})

t.test('the Vitest + MSW recipe fails when the handlers break the contract', async t => {
  const { code, output } = await vitest({ BREAK_CONTRACT: '1' })
  t.equal(code, 1, 'vitest exits 1', { output })
  t.match(output, /× asks to sign in again when the token is refused/)
})

const playwright = async (extraFlags = '', testFlags: string[] = []) => {
  const ports = { NVR_PORT: String(await freePort()), FRONTEND_PORT: String(await freePort()) }
  const output = await mkdtemp(join(tmpdir(), 'mock-nvr-playwright-'))
  try {
    return await run([bin('@playwright/test/cli.js'), 'test', '--config', 'examples/playwright/playwright.config.ts', '--output', output, ...testFlags], { ...ports, MOCK_NVR_COMMAND: `${CLI}${extraFlags}` })
  } finally {
    await rm(output, { recursive: true, force: true })
  }
}

t.test('the Playwright recipe passes: each page state set through the admin API', async t => {
  const { code, output } = await playwright()
  t.equal(code, 0, 'playwright test exits 0', { output })
  t.match(output, /4 passed/)
})

t.test('the Playwright recipe fails when mock-nvr refuses the page\'s token', async t => {
  // The first test failing is the proof; -x stops there, instead of each test waiting out its expect time-out.
  const { code, output } = await playwright(' --token someone-else', ['-x'])
  t.equal(code, 1, 'playwright test exits 1', { output })
  t.match(output, /✘.*shows the lobby's counting lines/)
})
