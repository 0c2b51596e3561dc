import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { untracked } from '../helpers/untracked.js'

const execUntracked = promisify(execFile)
const run = (file: string, args: string[]) => execUntracked(...untracked(file, args))
const root = new URL('../../', import.meta.url)
const tsc = join(root.pathname, 'node_modules', 'typescript', 'bin', 'tsc')

// What a frontend writes: types only, in a project without @types/node.
const CONSUMER = `import type { CountingLine, CountingLineListEnvelope, ErrorEnvelope, FaultSpec } from 'mock-nvr/types'

export function names (answer: CountingLineListEnvelope): string[] {
  return answer.content.map((line: CountingLine) => line.name)
}
export const refusal = (answer: ErrorEnvelope): string => \`\${answer.result.httpCode}: \${answer.result.errorMessage}\`
export const slow: FaultSpec = { delay: { min: 100, max: 800 }, route: 'list' }
`

async function files (folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true })
  return entries.filter(entry => entry.isFile()).map(entry => join(entry.parentPath, entry.name))
}

t.test('mock-nvr/types compiles in a project without Node types, and reaches no server package', async t => {
  t.ok(readFileSync(new URL('docs/frontend-testing.md', root), 'utf8').includes(CONSUMER.split('\n')[0] as string), 'the import the docs show')
  const folder = await mkdtemp(join(tmpdir(), 'mock-nvr-types-'))
  t.teardown(() => rm(folder, { recursive: true, force: true }))
  const declarations = join(folder, 'declarations')
  // Emitted without Node's types, which the declarations must not need (and which took most of tsc's time).
  await writeFile(join(folder, 'emit.json'), JSON.stringify({
    compilerOptions: {
      declaration: true,
      emitDeclarationOnly: true,
      skipLibCheck: true,
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      target: 'ES2023',
      strict: true,
      types: [],
      rootDir: join(root.pathname, 'src'),
      outDir: declarations
    },
    files: [join(root.pathname, 'src', 'types.ts')]
  }))
  await run(process.execPath, [tsc, '-p', join(folder, 'emit.json')])
  const emitted = await files(declarations)
  t.ok(emitted.some(file => file.endsWith('types.d.ts')))
  for (const file of emitted) {
    const text = await readFile(file, 'utf8')
    t.notMatch(text, /from ['"](node:|fastify|pino|@fastify|fast-json-stringify)/, `${file} imports nothing of the server`)
  }
  await writeFile(join(folder, 'consumer.ts'), CONSUMER)
  // As an install of mock-nvr brings it: TypeBox, whose declarations the wire types are written in.
  await mkdir(join(folder, 'node_modules'))
  await symlink(join(root.pathname, 'node_modules', '@sinclair'), join(folder, 'node_modules', '@sinclair'))
  await writeFile(join(folder, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      module: 'ESNext',
      moduleResolution: 'Bundler',
      target: 'ES2022',
      lib: ['ES2022', 'DOM'],
      types: [],
      // TypeBox's own declarations are type-checked too: a frontend sees them through the wire types.
      // TypeScript's own lib files are left to TypeScript.
      skipLibCheck: false,
      skipDefaultLibCheck: true,
      baseUrl: '.',
      paths: { 'mock-nvr/types': ['./declarations/types.d.ts'] }
    },
    files: ['consumer.ts']
  }))
  const { stdout } = await run(process.execPath, [tsc, '-p', join(folder, 'tsconfig.json')]).catch((error: { stdout: string }) => ({ stdout: error.stdout }))
  t.equal(stdout, '', 'the consumer compiles')
})
