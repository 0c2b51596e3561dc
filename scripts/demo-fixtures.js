// Writes src/msw/demo-fixtures.ts from fixtures/*.json: the MSW handlers serve the bundled demo data
// in a browser, where there is no file system to read fixtures/ from. test/msw/handlers.batched.test.ts
// fails when the module and the files differ: run this after editing fixtures/.
import { readdir, readFile, writeFile } from 'node:fs/promises'

const folder = new URL('../fixtures/', import.meta.url)
const names = (await readdir(folder)).filter(name => name.endsWith('.json')).sort()
const files = await Promise.all(names.map(async name => ({ file: name, data: JSON.parse(await readFile(new URL(name, folder), 'utf8')) })))
const source = `// Written by scripts/demo-fixtures.js from fixtures/: do not edit.
/* eslint-disable */

/** The bundled fixture files, by name and content, in the order the server reads them. */
export const DEMO_FIXTURES: ReadonlyArray<{ file: string, data: unknown }> = ${JSON.stringify(files, null, 2)}
`
await writeFile(new URL('../src/msw/demo-fixtures.ts', import.meta.url), source)
