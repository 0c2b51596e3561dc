import { validateFixtureData } from './fixture-validation.js'
import type { CountingLine, FixtureData } from '../contract/schemas.js'
import { FixtureError, type FixtureProblem } from '../errors/errors.js'

// Fixture data checked and merged without the file system, so the MSW handlers can do it in a browser.

/** Validated, merged fixture data: every camera in first-seen order, every line in list order. */
export interface Dataset {
  cameraIds: string[]
  lines: CountingLine[]
}

/** One camera and its lines in list order: what a ServedCamera is prepared from. */
export interface CameraLines {
  id: string
  lines: readonly CountingLine[]
}

/** A dataset's cameras in order, each with its lines in list order. */
export function camerasOf ({ cameraIds, lines }: Dataset): CameraLines[] {
  const linesByCamera = new Map<string, CountingLine[]>(cameraIds.map(id => [id, []]))
  for (const line of lines) linesByCamera.get(line.camera_id)?.push(line)
  return [...linesByCamera].map(([id, cameraLines]) => ({ id, lines: cameraLines }))
}

export interface FixtureSource {
  file: string
  data: FixtureData
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
export interface ParsedFixture {
  file: string
  value: unknown
}

/**
 * Cameras listed twice and line ids used twice within a camera, also across files. Reads the entries loosely,
 * so a file with other problems still has its ids compared; an entry without a usable id is skipped.
 */
export function duplicateIds (fixtures: ParsedFixture[]): FixtureProblem[] {
  const listedCameras = new Map<string, string>()
  const definedLines = new Map<string, string>()
  const problems: FixtureProblem[] = []
  for (const { file, value } of fixtures) {
    entriesOf(value, 'cameras').forEach((camera, index) => {
      const id = stringField(camera, 'id')
      if (id === undefined) return
      const earlier = listedCameras.get(id)
      if (earlier === undefined) {
        listedCameras.set(id, `${baseName(file)} /cameras/${index}`)
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
        definedLines.set(key, `${baseName(file)} /counting_lines/${index}`)
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

// The file's name without its folder, as node:path's basename gives it for the paths fixtures are read from.
function baseName (file: string): string {
  return file.slice(file.lastIndexOf('/') + 1)
}
