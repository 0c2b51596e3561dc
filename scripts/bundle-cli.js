// Rewrites dist/cli.js, which tsc has just emitted, as one esbuild bundle of the CLI and its dependencies.
// Loading some 430 modules one by one took most of the start-up (TypeBox's 266 ES modules alone about
// 100 ms); a single file starts in a fraction of that. The library entry, dist/index.js, stays as tsc
// wrote it.
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

// Packages known to run the same from a bundle: none reads its own files at run time, but for the
// page's files of @fastify/swagger-ui, which keep their folder (below). Every other dependency stays
// external and is loaded from node_modules as usual: pino-pretty and selfsigned are loaded only when
// asked for, and a new dependency is safe by default until it is added here.
const BUNDLED = ['@sinclair/typebox', '@fastify/swagger', '@fastify/swagger-ui', 'fast-json-stringify', 'fastify', 'pino']
// Bundled files that find their own files through __dirname: each gets its folder in node_modules back.
const READS_OWN_FILES = /[\\/]node_modules[\\/]@fastify[\\/]swagger-ui[\\/].*\.js$/

const { dependencies } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'))

/** Declares __dirname at the top of each such file as the folder its package has in node_modules at run time. */
const ownFolder = {
  name: 'own-folder',
  setup (esbuild) {
    esbuild.onLoad({ filter: READS_OWN_FILES }, async ({ path }) => {
      const id = path.replaceAll('\\', '/').split('/node_modules/').pop()
      const folder = `require('node:path').dirname(require.resolve(${JSON.stringify(id)}))`
      return { contents: `var __dirname = ${folder};\n${await readFile(path, 'utf8')}`, loader: 'js' }
    })
  }
}

// Another output file may be named, one folder below the project like dist/, as the bundle test does:
// the CLI finds the fixtures and package.json one level up from itself.
/* c8 ignore next: npm run build takes the default, and the tests name their own file */
const outfile = process.argv[2] ?? fileURLToPath(new URL('../dist/cli.js', import.meta.url))

await build({
  entryPoints: [fileURLToPath(new URL('../src/cli.ts', import.meta.url))],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: Object.keys(dependencies).filter(name => !BUNDLED.includes(name)),
  plugins: [ownFolder],
  // The bundled CommonJS packages call require() for Node's own modules; an ES module has to make one.
  banner: { js: "import { createRequire as createBundleRequire } from 'node:module'; const require = createBundleRequire(import.meta.url);" },
  logLevel: 'warning'
})
