import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import Fastify from 'fastify'
import t from 'tap'
import { DASHBOARD_FOLDER, registerDashboard } from '../../src/admin-api/dashboard-page.js'
import { dashboardValues } from '../../src/admin-api/dashboard-values.js'
import { DELAY_TEXT } from '../../src/util/delay.js'
import { build } from '../helpers/app.js'
import { ADMIN, ADMIN_TOKEN } from '../helpers/control.js'

const CSP = "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

t.test('with the admin API on, the page and its files are served without a token, each with its type and a strict CSP', async t => {
  const app = await build(t, { adminToken: ADMIN_TOKEN })
  for (const url of ['/__admin/ui/', '/__admin/ui']) {
    const page = await app.inject({ url })
    t.equal(page.statusCode, 200, url)
    t.equal(page.headers['content-type'], 'text/html; charset=utf-8')
    t.equal(page.headers['content-security-policy'], CSP)
    t.equal(page.headers['x-content-type-options'], 'nosniff')
    t.match(page.body, '<script type="module" src="/__admin/ui/main.js"></script>')
  }
  const types: Array<[string, string]> = [
    ['main.js', 'text/javascript; charset=utf-8'],
    ['api.js', 'text/javascript; charset=utf-8'],
    ['style.css', 'text/css; charset=utf-8'],
    ['icon.svg', 'image/svg+xml']
  ]
  for (const [name, type] of types) {
    const file = await app.inject({ url: `/__admin/ui/${name}` })
    t.equal(file.statusCode, 200, name)
    t.equal(file.headers['content-type'], type, name)
    t.equal(file.headers['content-security-policy'], CSP, name)
  }
  const head = await app.inject({ method: 'HEAD', url: '/__admin/ui/' })
  t.equal(head.statusCode, 200)
  t.equal(head.body, '', 'HEAD is bodiless')
  const post = await app.inject({ method: 'POST', url: '/__admin/ui/' })
  t.equal(post.statusCode, 405)
  t.equal(post.headers.allow, 'GET, HEAD')
})

t.test('the page holds no data, and every other admin path still needs the admin token', async t => {
  const app = await build(t, { adminToken: ADMIN_TOKEN })
  const page = await app.inject({ url: '/__admin/ui/' })
  t.notMatch(page.body, 'cam-1', 'no camera of the data is in the page')
  for (const url of ['/__admin', '/__admin/', '/__admin/ui/unknown.js', '/__admin/ui/../data', '/__admin/data']) {
    t.equal((await app.inject({ url })).statusCode, 401, url)
  }
  t.equal((await app.inject({ url: '/__admin/ui/unknown.js', headers: ADMIN })).statusCode, 404)
})

t.test('with the admin API off, the page is a 404 like any unknown path', async t => {
  const app = await build(t)
  for (const url of ['/__admin/ui/', '/__admin/ui/main.js']) {
    const response = await app.inject({ url })
    t.equal(response.statusCode, 404, url)
    t.match(response.json(), { result: { httpCode: 404, errorCode: 'PATH_NOT_FOUND', errorMessage: 'Nothing is served at this path.' } })
  }
})

t.test('only the files at the top of the folder with a known type are served', async t => {
  const folder = await mkdtemp(join(tmpdir(), 'mock-nvr-dashboard-'))
  t.teardown(() => rm(folder, { recursive: true, force: true }))
  await writeFile(join(folder, 'index.html'), '<!doctype html>')
  await writeFile(join(folder, 'notes.txt'), 'not served')
  await mkdir(join(folder, 'nested.js'))
  const app = Fastify()
  t.teardown(() => app.close())
  await registerDashboard(app, pathToFileURL(`${folder}/`))
  t.equal((await app.inject({ url: '/__admin/ui/' })).body, '<!doctype html>')
  t.equal((await app.inject({ url: '/__admin/ui/notes.txt' })).statusCode, 404)
  t.equal((await app.inject({ url: '/__admin/ui/nested.js' })).statusCode, 404)
})

t.test('the package folder holds the page', async t => {
  t.ok(DASHBOARD_FOLDER.href.endsWith('/dashboard/'))
})

t.test('what the page takes from the server (server-values.js) is the server\'s own, as generated, and served', async t => {
  const committed = await readFile(new URL('server-values.js', DASHBOARD_FOLDER), 'utf8')
  t.equal(committed, dashboardValues(), 'dashboard/server-values.js is up to date: run npm run dashboard:values')
  t.match(committed, `export const DELAY_TEXT = ${String(DELAY_TEXT)}\n`)
  const app = await build(t, { adminToken: ADMIN_TOKEN })
  const served = await app.inject({ url: '/__admin/ui/server-values.js' })
  t.equal(served.body, committed)
})

t.test('every script of the page is type-checked with the server\'s code: // @ts-check, in the folders tsconfig.json includes', async t => {
  const scripts = (await readdir(DASHBOARD_FOLDER)).filter(name => name.endsWith('.js'))
  t.ok(scripts.length > 5)
  for (const name of scripts) t.ok((await readFile(new URL(name, DASHBOARD_FOLDER), 'utf8')).startsWith('// @ts-check\n'), name)
  const { include, compilerOptions } = JSON.parse(await readFile(new URL('../tsconfig.json', DASHBOARD_FOLDER), 'utf8')) as { include: string[], compilerOptions: { allowJs?: boolean } }
  t.ok(include.includes('dashboard') && compilerOptions.allowJs === true)
})
