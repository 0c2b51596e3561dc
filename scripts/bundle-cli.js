// Rewrites dist/cli.js, which tsc has just emitted, as one esbuild bundle of the CLI and its dependencies.
// Loading some 430 modules one by one took most of the start-up (TypeBox's 266 ES modules alone about
// 100 ms); a single file starts in a fraction of that. The library entry, dist/index.js, stays as tsc
// wrote it.
//
// The bundle is split where the code imports a module with import(): what only a command or a feature
// uses (the proxy and its HTTP client, the admin API, the target commands, a fleet) is a chunk of its own
// in cli-chunks/, loaded when it is imported. Unsplit, every package such a module imports was loaded by
// every start, as an ES module's imports are hoisted to the top of the bundle: undici alone was a fifth of it.
import { readFile, rm } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
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

// A dependency's own source map is followed into the bundle's, but a map without the text of its sources (ret's,
// pointing at TypeScript files it does not publish) leaves sources nobody can open: such a file is bundled
// without its map, so the bundle maps to the JavaScript that was run, which it carries.
const SOURCE_MAP_COMMENT = /\n\/\/# sourceMappingURL=(\S+)\s*$/

/** Whether the map file a file names holds the text of every source it names. */
async function carriesItsSources (file, url) {
  try {
    const { sources, sourcesContent } = JSON.parse(await readFile(resolve(dirname(file), decodeURIComponent(url)), 'utf8'))
    return sources.every((_, index) => typeof sourcesContent?.[index] === 'string')
  /* c8 ignore next 3: every bundled dependency's map is a readable file today; another (missing, inline) is left out */
  } catch {
    return false
  }
}

const completeSourceMaps = {
  name: 'complete-source-maps',
  setup (esbuild) {
    esbuild.onLoad({ filter: /[\\/]node_modules[\\/].*\.[cm]?js$/ }, async ({ path }) => {
      const text = await readFile(path, 'utf8')
      const comment = SOURCE_MAP_COMMENT.exec(text)
      if (comment === null || await carriesItsSources(path, comment[1])) return undefined
      return { contents: text.slice(0, comment.index), loader: 'js' }
    })
  }
}

// Another output file may be named, one folder below the project like dist/, as the bundle test does:
// the CLI finds the fixtures and package.json one level up from itself.
/* c8 ignore next: npm run build takes the default, and the tests name their own file */
const outfile = process.argv[2] ?? fileURLToPath(new URL('../dist/cli.js', import.meta.url))

const CHUNK_FOLDER = 'cli-chunks'
// The chunks of an earlier build go: their names change with their content.
await rm(join(dirname(outfile), CHUNK_FOLDER), { recursive: true, force: true })

await build({
  entryPoints: { [basename(outfile, '.js')]: fileURLToPath(new URL('../src/cli.ts', import.meta.url)) },
  outdir: dirname(outfile),
  splitting: true,
  chunkNames: `${CHUNK_FOLDER}/[name]-[hash]`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: Object.keys(dependencies).filter(name => !BUNDLED.includes(name)),
  plugins: [ownFolder, completeSourceMaps],
  // The bundled CommonJS packages call require() for Node's own modules; an ES module (each chunk) has to make one.
  banner: { js: "import { createRequire as createBundleRequire } from 'node:module'; const require = createBundleRequire(import.meta.url);" },
  logLevel: 'warning'
})
