import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import ts from 'typescript'

// The folders of src/ in the order imports may point: a file may import from its own layer or any layer
// below it, never from one above. The entry points (cli.ts, index.ts, healthcheck.ts …) are the top.
const LAYERS = [
  ['.'],
  ['cli'],
  ['start', 'fleet', 'target-link'],
  ['app'],
  ['device-api', 'admin-api', 'mcp', 'openapi', 'target-proxy', 'msw'],
  ['pipeline', 'metrics'],
  ['device', 'control', 'control/faults', 'data', 'config', 'logging', 'target-client', 'health'],
  ['wire', 'contract'],
  ['errors'],
  ['util']
]
const SRC = fileURLToPath(new URL('../../src/', import.meta.url))
const folderOf = (file: string): string => relative(SRC, dirname(file)) || '.'
const layerOf = (file: string): number => LAYERS.findIndex(names => names.includes(folderOf(file)))

function sourceFiles (folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap(entry =>
    entry.isDirectory() ? sourceFiles(join(folder, entry.name)) : entry.name.endsWith('.ts') ? [join(folder, entry.name)] : [])
}

// Type-only imports count too, for the layers and for cycles: gone at run time, they still tie the files together.
function importsOf (file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)]
    .map(match => normalize(join(dirname(file), (match[1] as string).replace(/\.js$/, '.ts'))))
}

/** Every cycle met in a depth-first walk of the graph, as 'a → b → a'. */
function findCycles (graph: ReadonlyMap<string, readonly string[]>): string[] {
  const cycles: string[] = []
  const state = new Map<string, 'visiting' | 'done'>()
  const visit = (node: string, trail: string[]): void => {
    if (state.get(node) === 'done') return
    if (state.get(node) === 'visiting') {
      cycles.push([...trail.slice(trail.indexOf(node)), node].join(' → '))
      return
    }
    state.set(node, 'visiting')
    for (const next of graph.get(node) ?? []) visit(next, [...trail, node])
    state.set(node, 'done')
  }
  for (const node of graph.keys()) visit(node, [])
  return cycles
}

const files = sourceFiles(SRC)
const name = (file: string): string => relative(SRC, file)

t.test('every folder of src/ has its place in the layers', async t => {
  t.strictSame([...new Set(files.filter(file => layerOf(file) === -1).map(folderOf))], [])
})

t.test('imports point down the layers, never up', async t => {
  const upward = files.flatMap(file => importsOf(file)
    .filter(target => layerOf(target) < layerOf(file))
    .map(target => `${name(file)} imports ${name(target)}`))
  t.strictSame(upward, [])
})

t.test('no import cycles, type-only imports included', async t => {
  t.strictSame(findCycles(new Map(files.map(file => [name(file), importsOf(file).map(name)]))), [])
})

t.test('the cycle check finds a cycle', async t => {
  t.strictSame(findCycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]])), ['a → b → c → a'])
})

// Everything mock-nvr/msw reaches runs in a browser page: no server types, no Node modules, not even as types.
function reachableFrom (entry: string): string[] {
  const seen = new Set<string>()
  const visit = (file: string): void => {
    if (seen.has(file)) return
    seen.add(file)
    for (const next of importsOf(file)) visit(next)
  }
  visit(entry)
  return [...seen]
}

function packageImportsOf (file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^.'][^']*)'/g)].map(match => match[1] as string)
}

t.test('the code the browser bundle shares imports neither Fastify nor Node, types included', async t => {
  const shared = reachableFrom(join(SRC, 'msw/index.ts'))
  t.ok(shared.length > 10, 'the walk follows the imports')
  const serverOnly = shared.flatMap(file => packageImportsOf(file)
    .filter(target => target === 'fastify' || target.startsWith('node:') || target.startsWith('@fastify/') || target === 'pino')
    .map(target => `${name(file)} imports ${target}`))
  t.strictSame(serverOnly, [])
})

t.test('src/ holds the entry points only, and everything else in folders that say what they hold', async t => {
  t.ok(files.filter(file => folderOf(file) === '.').length <= 5, 'at most five files directly in src/')
})

t.test('nothing outside device/ reaches through a device into a part of it by .control', async t => {
  const reaching = files.filter(file => folderOf(file) !== 'device' && /\.control\./.test(readFileSync(file, 'utf8'))).map(name)
  t.strictSame(reaching, [])
})

t.test('nothing outside device/ reads a part of a device through it (device.store.…, device.clock.…): it asks the device', async t => {
  const reach = /\bdevice\??\.(store|journal|events|clock|faultControl|rateLimiter|recorder|tokens|cors|health)\??\.\w/
  const reaching = files.filter(file => folderOf(file) !== 'device' && reach.test(readFileSync(file, 'utf8'))).map(name)
  t.strictSame(reaching, [])
})

// A per-device setting reaches the device whole (DeviceCore's settings): no file passes it on by name.
t.test('the rate limit is named in code only where it is declared, kept, answered or documented: at most 8 files', async t => {
  const naming = files.filter(file => /ratelimit/i.test(readFileSync(file, 'utf8'))).map(name).sort()
  t.strictSame(naming, [
    'config/settings.ts', // its schema, flag and run-time value: its handle verb, admin routes and MCP tools follow
    'contract/rate-limit.ts', // the token bucket and its schema
    'control/summaries.ts', // what its verb answers, and the value it takes
    'device/device-core.ts', // the device keeps it, admits a request by it, sets it at run time, resets it
    'errors/catalogue.ts', // RATE_LIMITED, the 429's code
    'openapi/examples.ts', // the 429's example
    'wire/errors.ts' // the 429 answer
  ])
})

t.test('one reader of command lines: parseArgs is called in one place of src/', async t => {
  const calls = files.flatMap(file => [...readFileSync(file, 'utf8').matchAll(/\bparseArgs\(/g)].map(() => name(file)))
  t.strictSame(calls, ['cli/read-flags.ts'])
})

t.test('no function is longer than 60 lines', async t => {
  const long = files.flatMap(file => {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
    const found: string[] = []
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
        const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - source.getLineAndCharacterOfPosition(node.getStart()).line + 1
        if (lines > 60) found.push(`${name(file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} is ${lines} lines`)
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
    return found
  })
  t.strictSame(long, [])
})
