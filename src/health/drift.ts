import type { Dataset } from '../data/dataset.js'
import { pick, randomInteger, type Random } from '../util/random.js'
import type { CountingLine } from '../contract/schemas.js'
import { moveWkt } from './wkt.js'

/** What a drift edit did, as the journal reports it. */
export interface DriftEdit {
  edit: 'renamed' | 'moved' | 'added' | 'removed'
  camera: string
  line: string
  /** The edit's time, which the line's `updated` now holds (none for a removed line). */
  time: string
}

const KINDS = ['renamed', 'moved', 'added', 'removed'] as const
const NAMES = ['Entrance', 'Exit', 'Door', 'Gate', 'Corridor', 'Stairs', 'Lift', 'Checkout', 'Aisle', 'Dock', 'Ramp', 'Lobby']
const LARGEST_MOVE_PX = 40

/**
 * One edit a site operator could make, chosen by `random`: a line renamed, its geometry moved, a line added
 * or removed, `updated` set to `now`. A line whose geometry is not WKT is renamed instead of moved; with no
 * line at all one is added; with no camera, nothing can be. The dataset given is left as it is.
 */
export function driftEdit (dataset: Dataset, random: Random, now: number): { dataset: Dataset, edit: DriftEdit } | undefined {
  if (dataset.cameraIds.length === 0) return undefined
  const time = new Date(now).toISOString()
  const lines = dataset.lines
  let kind = pick(random, KINDS)
  if (lines.length === 0) kind = 'added'
  if (kind === 'added') return added(dataset, random, time)
  const index = randomInteger(random, 0, lines.length - 1)
  const line = lines[index] as CountingLine
  if (kind === 'removed') {
    return { dataset: { cameraIds: dataset.cameraIds, lines: lines.filter((_, each) => each !== index) }, edit: { edit: kind, camera: line.camera_id, line: line.id, time } }
  }
  let edited: CountingLine | undefined
  if (kind === 'moved') edited = movedLine(line, random)
  if (edited === undefined) {
    kind = 'renamed'
    edited = { ...line, name: renamed(line.name, random) }
  }
  edited.updated = laterOf(line.created, time)
  return { dataset: { cameraIds: dataset.cameraIds, lines: lines.map((each, at) => at === index ? edited : each) }, edit: { edit: kind, camera: line.camera_id, line: line.id, time } }
}

function movedLine (line: CountingLine, random: Random): CountingLine | undefined {
  const dx = randomInteger(random, -LARGEST_MOVE_PX, LARGEST_MOVE_PX)
  const dy = randomInteger(random, -LARGEST_MOVE_PX, LARGEST_MOVE_PX)
  const geometry = moveWkt(line.counting_line, dx, dy)
  if (geometry === undefined) return undefined
  return { ...line, counting_line: geometry, anchor: moveWkt(line.anchor, dx, dy) ?? line.anchor }
}

function renamed (name: string, random: Random): string {
  const next = pick(random, NAMES)
  return next === name ? `${next} 2` : next
}

function added (dataset: Dataset, random: Random, time: string): { dataset: Dataset, edit: DriftEdit } {
  const camera = pick(random, dataset.cameraIds)
  const taken = new Set(dataset.lines.filter(line => line.camera_id === camera).map(line => line.id))
  let number = taken.size + 1
  while (taken.has(`line-drift-${number}`)) number++
  const x = randomInteger(random, 100, 1700)
  const y = randomInteger(random, 100, 980)
  const line: CountingLine = {
    id: `line-drift-${number}`,
    camera_id: camera,
    name: pick(random, NAMES),
    counting_line: `LINESTRING(${x} ${y}, ${x + 200} ${y})`,
    anchor: `POINT(${x + 100} ${Math.min(1080, y + 60)})`,
    coalesce_entries: true,
    class: 'person',
    max_age: randomInteger(random, 15, 30),
    created: time,
    updated: time
  }
  // A camera with no line yet is still listed, so adding its first line changes nothing of the camera list.
  return { dataset: { cameraIds: dataset.cameraIds, lines: [...dataset.lines, line] }, edit: { edit: 'added', camera, line: line.id, time } }
}

// A line created after the clock's time (a manual clock set in the past) keeps updated ≥ created.
function laterOf (created: string, time: string): string {
  return created > time ? created : time
}
