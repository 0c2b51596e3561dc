import { build } from 'esbuild'
import t from 'tap'

t.test('mock-nvr/msw bundles for the browser, reaching no node: module and no server package', async t => {
  const result = await build({
    entryPoints: [new URL('../../src/msw/index.ts', import.meta.url).pathname],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    metafile: true,
    logLevel: 'silent'
  })
  const inputs = Object.keys(result.metafile.inputs)
  t.ok(inputs.some(input => input.endsWith('src/msw/answer.ts')))
  t.strictSame(inputs.filter(input => /^node:|node_modules\/(fastify|pino|fast-json-stringify|@fastify)\//.test(input)), [])
  const imports = Object.values(result.metafile.inputs).flatMap(input => input.imports.map(({ path }) => path))
  t.strictSame(imports.filter(path => path.startsWith('node:')), [], 'no import of a Node built-in')
})
