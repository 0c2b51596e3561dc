import { readFileSync } from 'node:fs'
import t from 'tap'
import { parse } from 'yaml'
import { CLI_OPTIONS, envName } from '../../src/cli/serve-flags.js'

const read = (name: string) => parse(readFileSync(new URL(`../../examples/${name}`, import.meta.url), 'utf8'))

t.test('the docker compose file runs mock-nvr, healthy, beside a frontend dev server', async t => {
  const { services } = read('docker-compose.yml')
  t.same(Object.keys(services), ['mock-nvr', 'frontend'])
  const nvr = services['mock-nvr']
  t.equal(nvr.build, '..', 'built from this repository\'s Dockerfile')
  t.strictSame(nvr.ports, ['8080:8080'])
  // The variables are the CLI's flags in their MOCK_NVR_ form.
  t.strictSame(Object.keys(nvr.environment), ['MOCK_NVR_TOKENS', 'MOCK_NVR_ADMIN_TOKEN', 'MOCK_NVR_CORS_ORIGINS'])
  const twins = new Set(CLI_OPTIONS.map(envName))
  for (const name of Object.keys(nvr.environment)) t.ok(twins.has(name), `${name} is the environment twin of a flag`)
  t.equal(nvr.environment.MOCK_NVR_CORS_ORIGINS, 'http://localhost:5173', 'the frontend\'s origin may call it')
  t.strictSame(nvr.healthcheck.test, ['CMD', 'node', 'dist/healthcheck.js'])
  t.strictSame(services.frontend.depends_on, { 'mock-nvr': { condition: 'service_healthy' } })
  t.strictSame(services.frontend.ports, ['5173:5173'])
  // The default of FRONTEND_DIR is a folder beside the file, with the dev script the service runs.
  const folder = /^\$\{FRONTEND_DIR:-([^}]+)\}:\/app$/.exec(services.frontend.volumes[0])?.[1] ?? 'none'
  t.strictSame(services.frontend.command.slice(0, 3), ['npm', 'run', 'dev'])
  const frontend = JSON.parse(readFileSync(new URL(`../../examples/${folder}/package.json`, import.meta.url), 'utf8'))
  t.type(frontend.scripts.dev, 'string', `examples/${folder} has a dev script`)
})

t.test('the GitHub Actions snippet runs the Vitest and Playwright recipes without downloading a browser', async t => {
  const workflow = read('github-actions.yml')
  t.ok(workflow.on, 'it has triggers')
  const steps = workflow.jobs.test.steps as Array<{ run?: string, uses?: string, env?: Record<string, string> }>
  t.equal(workflow.jobs.test.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD, '1')
  t.ok(steps.some(step => step.uses?.startsWith('actions/setup-node@')))
  t.ok(steps.some(step => step.run === 'npm ci'))
  t.ok(steps.some(step => step.run === 'npx vitest run'))
  const playwright = steps.find(step => step.run === 'npx playwright test')
  // The runner image's own Chromium; Ubuntu's chromium-browser package is a wrapper that installs the snap.
  t.equal(playwright?.env?.CHROMIUM_PATH, '/usr/bin/chromium', 'the runner image\'s Chromium')
  t.ok(steps.some(step => step.run === '/usr/bin/chromium --version'), 'a step shows it is there before the tests need it')
  t.notOk(steps.some(step => /playwright install|apt-get install -y chromium-browser/.test(step.run ?? '')), 'no browser download, no snap')
})
