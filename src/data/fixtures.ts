import { readdir, readFile, stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { locateJsonSyntaxError } from './json-syntax.js'
import { FixtureError, validateFixtureData, type FixtureProblem } from './fixture-validation.js'
import type { CountingLine, FixtureData } from '../wire/schemas.js'
import { PACKAGE_ROOT } from '../util/package-root.js'

/** Validated, merged fixture data: every camera in first-seen order, every line in list order. */
export interface Dataset {
  cameraIds: string[]
  lines: CountingLine[]
}

export interface FixtureSource {
  file: string
  data: FixtureData
}

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
  const names = (await readdir(path, { withFileTypes: true }))
    // Symbolic links count: mounted config folders (Kubernetes ConfigMaps, for one) are made of them.
    .filter(entry => (entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith('.json'))
    .map(entry => entry.name)
    .sort()
  if (names.length === 0) throw new FixtureError([{ file: path, path: '', message: 'the folder holds no .json file' }])
  return names.map(name => join(path, name))
}

async function readJsonFile (file: string): Promise<unknown> {
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

/** Validates and indexes data handed over in memory, as if it were one fixture file named by `source`. */
export function datasetFromData (value: unknown, source = 'data'): Dataset {
  return mergeFixtures([{ file: source, data: validateFixtureData(value, source) }])
}

/** Merges validated sources; a camera listed twice or a line id used twice in one camera is refused. */
export function mergeFixtures (sources: FixtureSource[]): Dataset {
  const problems = duplicateIds(sources.map(({ file, data }) => ({ file, value: data })))
  if (problems.length > 0) throw new FixtureError(problems)
  const cameraIds = new Set<string>()
  const lines: CountingLine[] = []
  for (const { data } of sources) {
    data.cameras?.forEach(({ id }) => cameraIds.add(id))
    data.counting_lines?.forEach(line => {
      cameraIds.add(line.camera_id)
      lines.push(line)
    })
  }
  return { cameraIds: [...cameraIds], lines }
}

/** A file's parsed JSON, valid or not. */
interface ParsedFixture {
  file: string
  value: unknown
}

/**
 * Cameras listed twice and line ids used twice within a camera, also across files. Reads the entries loosely,
 * so a file with other problems still has its ids compared; an entry without a usable id is skipped.
 */
function duplicateIds (fixtures: ParsedFixture[]): FixtureProblem[] {
  const listedCameras = new Map<string, string>()
  const definedLines = new Map<string, string>()
  const problems: FixtureProblem[] = []
  for (const { file, value } of fixtures) {
    entriesOf(value, 'cameras').forEach((camera, index) => {
      const id = stringField(camera, 'id')
      if (id === undefined) return
      const earlier = listedCameras.get(id)
      if (earlier === undefined) {
        listedCameras.set(id, `${basename(file)} /cameras/${index}`)
      } else {
        problems.push({ file, path: `/cameras/${index}/id`, message: `camera "${id}" is already listed at ${earlier}` })
      }
    })
    entriesOf(value, 'counting_lines').forEach((line, index) => {
      const id = stringField(line, 'id')
      const cameraId = stringField(line, 'camera_id')
      if (id === undefined || cameraId === undefined) return
      // JSON.stringify of the pair keys lines by camera without any separator ambiguity.
      const key = JSON.stringify([cameraId, id])
      const earlier = definedLines.get(key)
      if (earlier === undefined) {
        definedLines.set(key, `${basename(file)} /counting_lines/${index}`)
      } else {
        problems.push({ file, path: `/counting_lines/${index}/id`, message: `line "${id}" of camera "${cameraId}" is already defined at ${earlier}` })
      }
    })
  }
  return problems
}

function entriesOf (value: unknown, key: 'cameras' | 'counting_lines'): unknown[] {
  const entries = isRecord(value) ? value[key] : undefined
  return Array.isArray(entries) ? entries : []
}

function stringField (entry: unknown, field: string): string | undefined {
  const value = isRecord(entry) ? entry[field] : undefined
  return typeof value === 'string' && value !== '' ? value : undefined
}

function isRecord (value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}
