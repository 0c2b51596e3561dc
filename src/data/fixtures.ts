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

/** Validates and indexes data handed over in memory, as if it were one fixture file named by `source`. */
export function datasetFromData (value: unknown, source = 'data'): Dataset {
  return mergeFixtures([{ file: source, data: validateFixtureData(value, source) }])
}

/** Merges validated sources; a camera listed twice or a line id used twice in one camera is refused. */
export function mergeFixtures (sources: FixtureSource[]): Dataset {
  const cameraIds: string[] = []
  const knownCameras = new Set<string>()
  const listedCameras = new Map<string, string>()
  const definedLines = new Map<string, string>()
  const lines: CountingLine[] = []
  const problems: FixtureProblem[] = []

  function addCamera (id: string): void {
    if (knownCameras.has(id)) return
    knownCameras.add(id)
    cameraIds.push(id)
  }

  for (const { file, data } of sources) {
    data.cameras?.forEach(({ id }, index) => {
      const earlier = listedCameras.get(id)
      if (earlier !== undefined) {
        problems.push({ file, path: `/cameras/${index}/id`, message: `camera "${id}" is already listed at ${earlier}` })
        return
      }
      listedCameras.set(id, `${basename(file)} /cameras/${index}`)
      addCamera(id)
    })
    data.counting_lines?.forEach((line, index) => {
      // JSON.stringify of the pair keys lines by camera without any separator ambiguity.
      const key = JSON.stringify([line.camera_id, line.id])
      const earlier = definedLines.get(key)
      if (earlier !== undefined) {
        problems.push({ file, path: `/counting_lines/${index}/id`, message: `line "${line.id}" of camera "${line.camera_id}" is already defined at ${earlier}` })
        return
      }
      definedLines.set(key, `${basename(file)} /counting_lines/${index}`)
      addCamera(line.camera_id)
      lines.push(line)
    })
  }
  if (problems.length > 0) throw new FixtureError(problems)
  return { cameraIds, lines }
}
