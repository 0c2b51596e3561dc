import { FixtureError, validateFixtureData, type FixtureProblem } from './fixture-validation.js'
import type { CountingLine, FixtureData } from '../wire/schemas.js'

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
      listedCameras.set(id, `${baseName(file)} /cameras/${index}`)
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
      definedLines.set(key, `${baseName(file)} /counting_lines/${index}`)
      addCamera(line.camera_id)
      lines.push(line)
    })
  }
  if (problems.length > 0) throw new FixtureError(problems)
  return { cameraIds, lines }
}

// The file's name without its folder, as node:path's basename gives it for the paths fixtures are read from.
function baseName (file: string): string {
  return file.slice(file.lastIndexOf('/') + 1)
}
