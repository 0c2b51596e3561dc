import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { locateJsonSyntaxError } from './json-syntax.js'
import { FixtureError, validateFixtureData, type FixtureProblem } from './fixture-validation.js'
import { PACKAGE_ROOT } from '../util/package-root.js'

import { duplicateIds, mergeFixtures, type Dataset, type FixtureSource, type ParsedFixture } from './dataset.js'

/** The fixtures shipped with the package: realistic demo data, the default. */
export const BUNDLED_FIXTURES = fileURLToPath(new URL('fixtures/', PACKAGE_ROOT))

/**
 * Reads a fixture file, or every *.json file of a folder in lexical order, and merges them. Every problem of
 * every file is reported in one go: each file's own problems in file-name order, then the ids used twice,
 * found among all the entries that have ids, even in files with other problems.
 */
export async function loadFixtures (path: string): Promise<Dataset> {
  const files = await fixtureFiles(path)
  const parsed: ParsedFixture[] = []
  const sources: FixtureSource[] = []
  const problems: FixtureProblem[] = []
  for (const file of files) {
    try {
      const value = await readJsonFile(file)
      parsed.push({ file, value })
      sources.push({ file, data: validateFixtureData(value, file) })
    } catch (error) {
      // readJsonFile and validateFixtureData throw nothing but FixtureError: every failure is reported, none thrown past.
      problems.push(...(error as FixtureError).problems)
    }
  }
  problems.push(...duplicateIds(parsed))
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
  let entries
  try {
    entries = await readdir(path, { withFileTypes: true })
  } catch (error) {
    throw new FixtureError([{ file: path, path: '', message: describeFsError(error) }])
  }
  const names = entries
    // Symbolic links count: mounted config folders (Kubernetes ConfigMaps, for one) are made of them.
    .filter(entry => (entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith('.json'))
    .map(entry => entry.name)
    .sort()
  if (names.length === 0) throw new FixtureError([{ file: path, path: '', message: 'the folder holds no .json file' }])
  return names.map(name => join(path, name))
}

/** A JSON file's value; FixtureError names the file and what is wrong when it cannot be read or parsed. */
export async function readJsonFile (file: string): Promise<unknown> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new FixtureError([{ file, path: '', message: describeFsError(error) }])
  }
  return parseJson(text, file)
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
