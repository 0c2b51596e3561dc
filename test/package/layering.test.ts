import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

// The layering rule of docs/architecture.md: imports point from the entry points down, never back.
const STEPS = [['(entry)'], ['cli'], ['start'], ['app'], ['device-api', 'admin-api', 'openapi'], ['control', 'data', 'config', 'logging'], ['wire'], ['util']]
const SRC = fileURLToPath(new URL('../../src/', import.meta.url))

const files = (readdirSync(SRC, { recursive: true }) as string[]).filter(name => name.endsWith('.ts')).map(name => normalize(name))
const importsOf = new Map(files.map(file => [file, [...readFileSync(join(SRC, file), 'utf8').matchAll(/(?:from|import) '(\.[^']*)'/g)]
  .map(match => normalize(join(dirname(file), (match[1] ?? '').replace(/\.js$/, '.ts'))))]))
const folderOf = (file: string) => file.includes('/') ? file.slice(0, file.indexOf('/')) : '(entry)'
const stepOf = (file: string) => STEPS.findIndex(step => step.includes(folderOf(file)))

t.test('every folder of src/ has its step', async t => {
  for (const file of files) t.not(stepOf(file), -1, `${folderOf(file)} (${file}) is in the layering`)
})

t.test('imports point down the layers, or across one step', async t => {
  for (const [file, imports] of importsOf) {
    for (const imported of imports) {
      t.ok(stepOf(file) <= stepOf(imported), `${file} may import ${relative('.', imported)}`)
    }
  }
})

t.test('no file imports itself through others', async t => {
  const done = new Set<string>()
  function visit (file: string, path: string[]): void {
    if (path.includes(file)) {
      t.fail(`an import cycle: ${[...path.slice(path.indexOf(file)), file].join(' → ')}`)
      return
    }
    if (done.has(file)) return
    for (const imported of importsOf.get(file) ?? []) visit(imported, [...path, file])
    done.add(file)
  }
  for (const file of files) visit(file, [])
  t.equal(done.size, files.length, 'every file visited')
})
