// Rewrites dist/cli.js, which tsc has just emitted, as one esbuild bundle of the CLI and its dependencies.
// Loading some 430 modules one by one took most of the start-up (TypeBox's 266 ES modules alone about
// 100 ms); a single file starts in a fraction of that. The library entry, dist/index.js, stays as tsc
// wrote it.
import { readFile } from 'node:fs/promises'
import { build } from 'esbuild'

// Packages known to run the same from a bundle: none reads its own files at run time. Every other
// dependency stays external and is loaded from node_modules as usual: pino-pretty and selfsigned are
// loaded only when asked for, and a new dependency is safe by default until it is added here.
const BUNDLED = ['@sinclair/typebox', '@fastify/swagger', 'close-with-grace', 'fast-json-stringify', 'fastify', 'pino']

const { dependencies } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'))

await build({
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/cli.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: Object.keys(dependencies).filter(name => !BUNDLED.includes(name)),
  // The bundled CommonJS packages call require() for Node's own modules; an ES module has to make one.
  banner: { js: "import { createRequire as createBundleRequire } from 'node:module'; const require = createBundleRequire(import.meta.url);" },
  logLevel: 'warning'
})
