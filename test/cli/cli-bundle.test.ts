import { execFile } from 'node:child_process'
import { readdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { VERSION } from '../../src/util/version.js'
import { CLI_UNDER_TEST, runCli } from '../helpers/cli-process.js'
import { untracked } from '../helpers/untracked.js'

// npm start, the published bin and the Docker image run dist/cli.js, an esbuild bundle with its chunks in
// dist/cli-chunks/. The runner's `before` script builds one the same way, beside dist/ so that it finds the
// fixtures and package.json as dist/cli.js does.
const execUntracked = promisify(execFile)
const run = (file: string, args: string[]) => execUntracked(...untracked(file, args))
const bundle = CLI_UNDER_TEST

t.test('the bundled CLI serves the API, the API page with its files, and stops cleanly', async t => {
  const cli = runCli(['--port', '0', '--log-level', 'warn'], {}, bundle)
  const url = await cli.ready
  const list = await fetch(`${url}/nvr/v1/cameras/cam-security-exit/counting_lines`, { headers: { authorization: 'Bearer demo-token' } })
  t.equal(list.status, 200)
  t.equal(((await list.json()) as { content: unknown[] }).content.length, 2, 'the bundled fixtures')
  t.equal((await fetch(`${url}/nvr/v1/cameras/cam-security-exit/counting_lines`)).status, 401)
  const page = await fetch(`${url}/docs/`)
  t.equal(page.status, 200)
  t.match(await page.text(), 'swagger-ui-bundle.js')
  const script = await fetch(`${url}/docs/static/swagger-ui-bundle.js`)
  t.equal(script.status, 200, 'the page files are found from the bundle')
  t.ok((await script.arrayBuffer()).byteLength > 100_000)
  cli.child.kill('SIGTERM')
  t.equal(await cli.exit, 0)
})

t.test('the bundled CLI prints its version, the OpenAPI document, and refuses a bad flag', async t => {
  t.equal((await run(process.execPath, [bundle, '--version'])).stdout, `${VERSION}\n`)
  const document = JSON.parse((await run(process.execPath, [bundle, 'openapi'])).stdout) as { openapi: string }
  t.equal(document.openapi, '3.1.0')
  t.match((await run(process.execPath, [bundle, 'verify', '--help'])).stdout, 'Usage: mock-nvr verify --target URL')
  t.match((await run(process.execPath, [bundle, 'record', '--help'])).stdout, 'Usage: mock-nvr record --target URL')
  const refused = runCli(['--port', 'eighty'], {}, bundle)
  t.equal(await refused.exit, 2)
  t.match(refused.stderr(), "mock-nvr: --port must be a whole number from 0 to 65535, not 'eighty'. Run mock-nvr --help for the flags.\n")
})

t.test('the bundled CLI serves the dashboard from the package folder when the admin API is on', async t => {
  const cli = runCli(['--port', '0', '--log-level', 'warn'], { MOCK_NVR_ADMIN_TOKEN: 'bundle-admin' }, bundle)
  const url = await cli.ready
  const page = await fetch(`${url}/__admin/ui/`)
  t.equal(page.status, 200)
  t.match(await page.text(), '<title>mock-nvr dashboard</title>')
  const script = await fetch(`${url}/__admin/ui/main.js`)
  t.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8')
  cli.child.kill('SIGTERM')
  t.equal(await cli.exit, 0)
})

// src/ and node_modules are not in the package: a source a map names without its text opens nowhere.
t.test('the source maps of the bundle and of its chunks carry the text of every source they name', async t => {
  const chunks = join(dirname(bundle), 'cli-chunks')
  const files = [`${bundle}.map`, ...(await readdir(chunks)).filter(name => name.endsWith('.map')).map(name => join(chunks, name))]
  const maps = await Promise.all(files.map(async file => JSON.parse(await readFile(file, 'utf8')) as { sources: string[], sourcesContent: Array<string | null> }))
  t.ok(maps.some(({ sources }) => sources.some(source => source.includes('node_modules/ret/'))), 'a dependency whose own map lacks its sources is in one')
  t.strictSame(maps.flatMap(({ sources, sourcesContent }) => sources.filter((_, index) => typeof sourcesContent[index] !== 'string')), [])
})
