import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { notValidJson } from './json-syntax.js'
import { validateFixtureData } from './fixture-validation.js'
import { PACKAGE_ROOT } from '../util/package-root.js'

import { duplicateIds, mergeFixtures, type Dataset, type FixtureSource, type ParsedFixture } from './dataset.js'
import { FixtureError, type FixtureProblem } from '../errors/errors.js'

/** The fixtures shipped with the package: realistic demo data, the default. */
export const BUNDLED_FIXTURES = fileURLToPath(new URL('fixtures/', PACKAGE_ROOT))

/**
 * Reads a fixture file, or every *.json file of a folder in lexical order but for hidden ones, and merges them. Every problem of
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
    // A name starting with a dot is hidden, or an editor's lock or backup file (.#site.json), not a fixture.
    .filter(entry => (entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith('.json') && !entry.name.startsWith('.'))
    .map(entry => entry.name)
    .sort()
  if (names.length === 0) throw new FixtureError([{ file: path, path: '', message: 'the folder holds no .json file' }])
  return names.map(name => join(path, name))
}

/** A JSON file's value; FixtureError names the file and what is wrong when it cannot be read or parsed. */
export async function readJsonFile (file: string): Promise<unknown> {
  let bytes: Buffer
  try {
    bytes = await readFile(file)
  } catch (error) {
    throw new FixtureError([{ file, path: '', message: describeFsError(error) }])
  }
  return parseJson(decodeUtf8(bytes, file), file)
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * The text of a fixture file, which JSON requires to be UTF-8. A UTF-8 byte order mark, as editors on Windows may
 * save, is dropped; UTF-16 (with its mark, or told by the zero bytes beside ASCII) and bytes that are not UTF-8 are
 * refused by name, rather than read as garbled text or reported as "is not valid JSON at line 1".
 */
function decodeUtf8 (bytes: Buffer, file: string): string {
  const refuse = (message: string): never => { throw new FixtureError([{ file, path: '', message }]) }
  const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe ? 'little-endian' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'big-endian' : undefined
  if (utf16 !== undefined) refuse(`is UTF-16 (${utf16}, by its byte order mark); save it as UTF-8`)
  if (bytes.length >= 2 && (bytes[0] === 0) !== (bytes[1] === 0)) refuse(`is UTF-16 (${bytes[0] === 0 ? 'big' : 'little'}-endian, without a byte order mark); save it as UTF-8`)
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes
  try {
    return UTF8.decode(body)
  } catch {
    return refuse('is not UTF-8 text (Latin-1 or another legacy encoding?); save it as UTF-8')
  }
}

function parseJson (text: string, file: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw new FixtureError([{ file, path: '', message: notValidJson(text) }])
  }
}

/** A file-system error in a few words, for a start-up message. */
export function describeFsError (error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENOENT' ? 'no such file or folder' : `cannot be read (${String(code)})`
}
