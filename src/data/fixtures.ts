import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { locateJsonSyntaxError } from './json-syntax.js'
import { FixtureError, validateFixtureData, type FixtureProblem } from './fixture-validation.js'
import type { FixtureData } from '../wire/schemas.js'
import { PACKAGE_ROOT } from '../package-root.js'

import { mergeFixtures, type Dataset, type FixtureSource } from './dataset.js'

export { datasetFromData, mergeFixtures, type Dataset, type FixtureSource } from './dataset.js'

/** The fixtures shipped with the package: realistic demo data, the default. */
export const BUNDLED_FIXTURES = fileURLToPath(new URL('fixtures/', PACKAGE_ROOT))

/** Reads a fixture file, or every *.json file of a folder in lexical order, and merges them. */
export async function loadFixtures (path: string): Promise<Dataset> {
  const files = await fixtureFiles(path)
  const sources: FixtureSource[] = []
  const problems: FixtureProblem[] = []
  for (const file of files) {
    try {
      sources.push({ file, data: await readFixtureFile(file) })
    } catch (error) {
      // readFixtureFile throws nothing but FixtureError: every failure is reported, none thrown past.
      problems.push(...(error as FixtureError).problems)
    }
  }
  if (problems.length > 0) throw new FixtureError(problems)
  return mergeFixtures(sources)
}

async function fixtureFiles (path: string): Promise<string[]> {
  let isDirectory: boolean
  try {
    isDirectory = (await stat(path)).isDirectory()
  } catch (error) {
    throw new FixtureError([{ file: path, path: '', message: describeFsError(error) }])
  }
  if (!isDirectory) return [path]
  const names = (await readdir(path, { withFileTypes: true }))
    // Symbolic links count: mounted config folders (Kubernetes ConfigMaps, for one) are made of them.
    .filter(entry => (entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith('.json'))
    .map(entry => entry.name)
    .sort()
  if (names.length === 0) throw new FixtureError([{ file: path, path: '', message: 'the folder holds no .json file' }])
  return names.map(name => join(path, name))
}

async function readFixtureFile (file: string): Promise<FixtureData> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new FixtureError([{ file, path: '', message: describeFsError(error) }])
  }
  return validateFixtureData(parseJson(text, file), file)
}

function parseJson (text: string, file: string): unknown {
  // Editors on Windows may save a byte order mark, which JSON.parse refuses.
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text
  try {
    return JSON.parse(body)
  } catch {
    throw new FixtureError([{ file, path: '', message: `invalid JSON at ${locateJsonSyntaxError(body)}` }])
  }
}

/** A file-system error in a few words, for a start-up message. */
export function describeFsError (error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENOENT' ? 'no such file or folder' : `cannot be read (${String(code)})`
}
