import { execFile } from 'node:child_process'
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import t from 'tap'
import { untracked } from '../helpers/untracked.js'

// The package holds what a user needs, nothing else: what npm pack would put in the tarball, held to a list of
// patterns. Its own process: npm takes a second or two to start, twice.
const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** Every path the package may hold; anything else in the tarball is a mistake. */
const ALLOWED = [
  /^(package\.json|README\.md|LICENSE)$/,
  // The build: the library, its types and source maps, and the CLI's bundle.
  /^dist\/([\w-]+\/)*[\w.-]+\.(js|js\.map|d\.ts)$/,
  /^fixtures\/[\w.-]+\.json$/,
  /^dashboard\/[\w.-]+\.(html|js|css|svg)$/,
  /^docs\/[\w.-]+\.(md|png)$/,
  // The example tests and recipes the docs show, one folder deep at most, and a folder's README.
  /^examples\/([\w-]+\/)?[\w.-]+\.(ts|mjs|yml|json)$/,
  /^examples\/[\w-]+\/README\.md$/
]
/** Never in the package, whatever the patterns above let in: installed packages, caches and dot files. */
const NEVER = /(^|\/)(node_modules|\.[^/]*)(\/|$)/

const packed = async (folder: string): Promise<string[]> => {
  const { stdout } = await promisify(execFile)(...untracked('npm', ['pack', '--dry-run', '--json', '--ignore-scripts']), { cwd: folder })
  return (JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0]?.files.map(file => file.path).sort() ?? []
}
const refused = (paths: readonly string[]) => paths.filter(path => NEVER.test(path) || !ALLOWED.some(pattern => pattern.test(path)))

t.test('what a test run leaves in the project\'s folders stays out of the package', async t => {
  // The project's own package.json decides (its files); the rest is a project as a test run leaves it.
  const folder = t.testdir({
    'README.md': '#',
    LICENSE: 'MIT License\n',
    dist: { 'index.js': '', 'index.d.ts': '', 'index.js.map': '{}', 'cli.js': '', msw: { 'index.js': '' } },
    fixtures: { 'site.json': '{}' },
    dashboard: { 'index.html': '', 'main.js': '', 'style.css': '' },
    docs: { 'testing.md': '#', 'api-page.png': '' },
    examples: {
      'tap.test.ts': '',
      'github-actions.yml': '',
      frontend: { 'package.json': '{}', 'dev-server.mjs': '' },
      vitest: {
        'lines.test.ts': '',
        'vitest.config.ts': '',
        node_modules: { '.vite': { vitest: { 'results.json': '{}' } }, 'stray.ts': '' }
      },
      'vitest-msw': { node_modules: { '.vite': { vitest: { 'results.json': '{}' } } }, '.cache': { 'entry.ts': '' } },
      playwright: { 'lobby.spec.ts': '', '.last-run.json': '{}' }
    },
    src: { 'index.ts': '' },
    test: { 'a.test.ts': '' },
    '.tap': { 'test-results': { 'a.tap': '' } },
    coverage: { 'index.html': '' }
  })
  copyFileSync(join(ROOT, 'package.json'), join(folder, 'package.json'))
  const paths = await packed(folder)
  t.strictSame(refused(paths), [], 'nothing outside the allowed patterns')
  t.strictSame(paths, [
    'LICENSE', 'README.md',
    'dashboard/index.html', 'dashboard/main.js', 'dashboard/style.css',
    'dist/cli.js', 'dist/index.d.ts', 'dist/index.js', 'dist/index.js.map', 'dist/msw/index.js',
    'docs/api-page.png', 'docs/testing.md',
    'examples/frontend/dev-server.mjs', 'examples/frontend/package.json', 'examples/github-actions.yml',
    'examples/playwright/lobby.spec.ts', 'examples/tap.test.ts', 'examples/vitest/lines.test.ts', 'examples/vitest/vitest.config.ts',
    'fixtures/site.json', 'package.json'
  ], 'and everything a user needs')
})

t.test('the package this project would publish now holds only allowed paths', async t => {
  const paths = await packed(ROOT)
  t.strictSame(refused(paths), [])
  t.ok(paths.includes('package.json') && paths.includes('fixtures/terminal-gates.json') && paths.includes('examples/tap.test.ts'))
})

t.test('the allowed patterns refuse what must never ship', async t => {
  t.strictSame(refused([
    'examples/vitest/node_modules/.vite/vitest/results.json', 'examples/vitest/node_modules/x.ts', 'dist/.cache/x.js',
    'src/index.ts', 'test/a.test.ts', 'examples/a/b/c.ts', 'docs/notes.txt', '.tap/x', 'dist/index.ts'
  ]).length, 9)
})
