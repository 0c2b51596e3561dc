import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { DOC_PAGES, readDoc } from '../helpers/docs.js'

const root = new URL('../../', import.meta.url)
const readJson = (path: string) => JSON.parse(readFileSync(new URL(path, root), 'utf8')) as Record<string, unknown>
const packageJson = readJson('package.json') as { bin: Record<string, string>, exports: Record<string, unknown>, files: string[], type: string }
const buildConfig = readJson('tsconfig.build.json') as { compilerOptions: { rootDir: string, outDir: string, inlineSources?: boolean } }

const compilerOptions = readJson('tsconfig.json').compilerOptions as { declaration?: boolean }

/** The source file tsc compiles to a file of the build's outDir, or undefined for a path outside it. */
function sourceOf (built: string): string | undefined {
  const { rootDir, outDir } = buildConfig.compilerOptions
  const relative = built.replace(/^\.\//, '')
  if (!relative.startsWith(`${outDir}/`)) return undefined
  return `${rootDir}/${relative.slice(outDir.length + 1).replace(/\.d\.ts$|\.js$/, '.ts')}`
}

t.test('the package entry points are files the build makes: the library with its types, and the CLI', async t => {
  t.equal(packageJson.type, 'module')
  const library = packageJson.exports['.'] as { types: string, default: string }
  t.equal(sourceOf(library.types), 'src/index.ts')
  t.equal(sourceOf(library.default), 'src/index.ts')
  t.ok(existsSync(new URL('src/index.ts', root)))
  t.equal(compilerOptions.declaration, true, 'declarations are emitted')
  t.match(readFileSync(new URL('src/index.ts', root), 'utf8'), /export \{[^}]*startMockNvr/, 'the library exports startMockNvr')

  const cli = packageJson.bin['mock-nvr'] ?? ''
  t.equal(sourceOf(cli), 'src/cli.ts')
  const bundleScript = readFileSync(new URL('scripts/bundle-cli.js', root), 'utf8')
  t.ok(bundleScript.includes(`'../${cli}'`), 'the bundle is written where bin points')
  t.ok(readFileSync(new URL('src/cli.ts', root), 'utf8').startsWith('#!/usr/bin/env node'), 'the CLI runs as a command')
  t.ok(packageJson.files.includes('dist') && packageJson.files.includes('fixtures'), 'the package holds the build and the bundled fixtures')
  t.ok(existsSync(fileURLToPath(new URL('fixtures', root))))
})

t.test('the package ships what its docs and package.json point at', async t => {
  t.equal((readJson('package.json') as { license: string }).license, 'MIT')
  t.match(readFileSync(new URL('LICENSE', root), 'utf8'), /^MIT License\n/, 'a LICENSE file for the MIT licence (npm always packs it)')
  t.equal(buildConfig.compilerOptions.inlineSources, true, 'the source maps carry their sources: src/ is not in the package')
  // A picture's path is relative to its page. The README and the docs pages ship with their pictures, so their
  // links and --help's pointers resolve in node_modules (test-examples/install.test.ts checks a real install).
  const picturesOf = (page: string) => new Set([...readDoc(page).matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)]
    .map(match => new URL(match[1] ?? '', new URL(page, root)).href.slice(root.href.length)))
  const shipped = (path: string) => packageJson.files.some(entry => new RegExp(`^${entry.replaceAll('.', '\\.').replaceAll('*', '[^/]*')}(/|$)`).test(path))
  t.ok(picturesOf('README.md').has('docs/api-page.png'))
  for (const page of DOC_PAGES) t.ok(page === 'README.md' || shipped(page), `${page} is in the package`)
  for (const picture of new Set(DOC_PAGES.flatMap(page => [...picturesOf(page)]))) {
    t.ok(existsSync(new URL(picture, root)), `${picture} exists`)
    t.ok(shipped(picture), `${picture} is in the package`)
  }
  t.notOk(shipped('src/index.ts'), 'the sources are not')
})

t.test('the dashboard\'s files ship in the package and the Docker image', async t => {
  t.ok(packageJson.files.includes('dashboard'), 'package.json files holds the folder')
  t.match(readFileSync(new URL('Dockerfile', root), 'utf8'), /^COPY dashboard \.\/dashboard$/m, 'the image copies it beside dist/')
  t.match(readFileSync(new URL('.dockerignore', root), 'utf8'), /^!dashboard\/$/m, 'the build context lets it in')
})
