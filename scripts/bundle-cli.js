// Rewrites dist/cli.js, which tsc has just emitted, as one esbuild bundle of the CLI and its dependencies.
// Loading some 430 modules one by one took most of the start-up (TypeBox's 266 ES modules alone about
// 100 ms); a single file starts in a fraction of that. The library entry, dist/index.js, stays as tsc
// wrote it.
//
// The bundle is split where the code imports a module with import(): what only a command or a feature
// uses (the proxy and its HTTP client, the admin API, the target commands, a fleet) is a chunk of its own
// in cli-chunks/, loaded when it is imported. Unsplit, every package such a module imports was loaded by
// every start, as an ES module's imports are hoisted to the top of the bundle: undici alone was a fifth of it.
//
// esbuild cuts a chunk for each set of import()s that share code, some forty of them on a start's way, and
// Node 20 takes some 0.4 ms for each ES module it loads. Rollup then joins esbuild's chunks without changing
// what a command loads: what the command line itself imports is one chunk, what serving a device imports
// beyond it another, and the rest as Rollup shares it out (a start to the first 200 went from 255 to 227 ms).
import { chmod, readFile, rm } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { rollup } from 'rollup'

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
// esbuild writes here, Rollup reads from here; one folder below the output, so that the maps' paths stay true.
const staging = join(dirname(outfile), '.cli-staging')
// The chunks of an earlier build go: their names change with their content.
await rm(join(dirname(outfile), CHUNK_FOLDER), { recursive: true, force: true })
await rm(staging, { recursive: true, force: true })

const { metafile } = await build({
  entryPoints: { [basename(outfile, '.js')]: fileURLToPath(new URL('../src/cli.ts', import.meta.url)) },
  outdir: staging,
  splitting: true,
  chunkNames: `${CHUNK_FOLDER}/[name]-[hash]`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  metafile: true,
  external: Object.keys(dependencies).filter(name => !BUNDLED.includes(name)),
  plugins: [ownFolder, completeSourceMaps],
  // The bundled CommonJS packages call require() for Node's own modules; an ES module (each chunk) has to make one.
  banner: { js: "import { createRequire as createBundleRequire } from 'node:module'; const require = createBundleRequire(import.meta.url);" },
  logLevel: 'warning'
})

/** The staged files a file loads by its static imports, itself included. */
function staticallyLoaded (file) {
  const loaded = new Set()
  const visit = path => {
    if (loaded.has(path)) return
    loaded.add(path)
    for (const { path: imported, kind } of metafile.outputs[path]?.imports ?? []) {
      if (kind === 'import-statement' && !imported.startsWith('node:') && metafile.outputs[imported] !== undefined) visit(imported)
    }
  }
  visit(file)
  return loaded
}

const outputs = Object.keys(metafile.outputs).filter(path => path.endsWith('.js'))
const entryOutput = outputs.find(path => metafile.outputs[path].entryPoint === 'src/cli.ts')
const serveOutput = outputs.find(path => metafile.outputs[path].entryPoint === 'src/start/start-mock-nvr.ts')
const commandLine = staticallyLoaded(entryOutput)
const serving = staticallyLoaded(serveOutput)
const chunkOf = new Map([
  ...[...serving].filter(path => !commandLine.has(path)).map(path => [resolve(path), 'serve']),
  ...[...commandLine].filter(path => path !== entryOutput).map(path => [resolve(path), 'command-line'])
])

// Rollup takes esbuild's maps along, so the joined chunks map to the sources esbuild read.
const stagedSourceMaps = {
  name: 'staged-source-maps',
  async load (id) {
    const code = await readFile(id, 'utf8')
    const comment = SOURCE_MAP_COMMENT.exec(code)
    /* c8 ignore next: esbuild writes a map for every file */
    if (comment === null) return code
    return { code: code.slice(0, comment.index), map: await readFile(resolve(dirname(id), comment[1]), 'utf8') }
  }
}

const joined = await rollup({
  input: { [basename(outfile, '.js')]: resolve(entryOutput) },
  // esbuild has shaken the tree already; Rollup only moves code between files.
  treeshake: false,
  external: id => !id.startsWith('.') && !id.startsWith('/'),
  plugins: [stagedSourceMaps],
  onwarn (warning, warn) {
    // esbuild's chunks import each other in circles, and its CommonJS wrappers read `this` at the top level.
    if (!['CIRCULAR_DEPENDENCY', 'THIS_IS_UNDEFINED'].includes(warning.code)) warn(warning)
  }
})
await joined.write({
  dir: dirname(outfile),
  format: 'es',
  sourcemap: true,
  entryFileNames: '[name].js',
  // esbuild's own hash leaves the name: Rollup's follows it.
  chunkFileNames: ({ name }) => `${CHUNK_FOLDER}/${name.replace(/-[A-Z0-9]{8}$/, '')}-[hash].js`,
  manualChunks: id => chunkOf.get(id)
})
await joined.close()
await chmod(outfile, 0o755)
await rm(staging, { recursive: true, force: true })
