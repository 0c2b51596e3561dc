import type { Dataset } from './dataset.js'
import { CountingLineSchema, type CountingLine } from '../contract/schemas.js'

/** A line named by its camera and its id, the pair that identifies it. */
export interface LineRef {
  camera_id: string
  id: string
}

/** What changed from one dataset to the next. */
export interface DatasetDiff {
  camerasAdded: string[]
  camerasRemoved: string[]
  linesAdded: LineRef[]
  linesRemoved: LineRef[]
  /** Lines kept under the same camera and id with at least one field changed. */
  linesChanged: LineRef[]
  /** Cameras whose kept lines are listed in another order. */
  camerasReordered: string[]
}

const LINE_FIELDS = Object.keys(CountingLineSchema.properties) as Array<keyof CountingLine>
const SHOWN_PER_KIND = 5

/** Compares two datasets; pure, so a reload can log what it changed before anyone asks. */
export function diffDatasets (before: Dataset, after: Dataset): DatasetDiff {
  const beforeCameras = new Set(before.cameraIds)
  const afterCameras = new Set(after.cameraIds)
  const beforeLines = indexLines(before.lines)
  const afterLines = indexLines(after.lines)
  const kept = (lines: CountingLine[], other: Map<string, CountingLine>) => lines.filter(line => other.has(lineKey(line)))

  const orderBefore = idsByCamera(kept(before.lines, afterLines))
  const camerasReordered = [...idsByCamera(kept(after.lines, beforeLines))]
    .filter(([camera, ids]) => !sameSequence(ids, orderBefore.get(camera) as string[]))
    .map(([camera]) => camera)

  return {
    camerasAdded: after.cameraIds.filter(id => !beforeCameras.has(id)),
    camerasRemoved: before.cameraIds.filter(id => !afterCameras.has(id)),
    linesAdded: after.lines.filter(line => !beforeLines.has(lineKey(line))).map(toRef),
    linesRemoved: before.lines.filter(line => !afterLines.has(lineKey(line))).map(toRef),
    linesChanged: after.lines.filter(line => {
      const old = beforeLines.get(lineKey(line))
      return old !== undefined && LINE_FIELDS.some(field => old[field] !== line[field])
    }).map(toRef),
    camerasReordered
  }
}

/** One plain sentence, e.g. "1 camera added (cam-9), 2 lines changed (line-1 of cam-1, line-2 of cam-1)". */
export function describeDiff (diff: DatasetDiff): string {
  const parts = [
    describeKind(diff.camerasAdded, 'camera', 'added'),
    describeKind(diff.camerasRemoved, 'camera', 'removed'),
    describeKind(diff.linesAdded.map(describeRef), 'line', 'added'),
    describeKind(diff.linesRemoved.map(describeRef), 'line', 'removed'),
    describeKind(diff.linesChanged.map(describeRef), 'line', 'changed'),
    describeKind(diff.camerasReordered, 'camera', 'with lines reordered')
  ].filter(part => part !== '')
  // A save that changed nothing is still worth a line: it shows the edit was seen.
  return parts.length === 0 ? 'nothing changed' : parts.join(', ')
}

function describeKind (names: string[], noun: string, verb: string): string {
  if (names.length === 0) return ''
  const shown = names.slice(0, SHOWN_PER_KIND).join(', ')
  const more = names.length > SHOWN_PER_KIND ? ` and ${names.length - SHOWN_PER_KIND} more` : ''
  return `${names.length} ${noun}${names.length === 1 ? '' : 's'} ${verb} (${shown}${more})`
}

function describeRef ({ camera_id: cameraId, id }: LineRef): string {
  return `${id} of ${cameraId}`
}

// JSON of the pair keys a line by camera and id without any separator ambiguity.
function lineKey (line: LineRef): string {
  return JSON.stringify([line.camera_id, line.id])
}

function toRef ({ camera_id: cameraId, id }: CountingLine): LineRef {
  return { camera_id: cameraId, id }
}

function indexLines (lines: CountingLine[]): Map<string, CountingLine> {
  return new Map(lines.map(line => [lineKey(line), line]))
}

function idsByCamera (lines: CountingLine[]): Map<string, string[]> {
  const byCamera = new Map<string, string[]>()
  for (const line of lines) {
    const ids = byCamera.get(line.camera_id) ?? []
    ids.push(line.id)
    byCamera.set(line.camera_id, ids)
  }
  return byCamera
}

function sameSequence (a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index])
}
