import type { CameraLines } from './dataset.js'
import { FRAME, lineString, type Pixel, pointBeside, wktPoint } from './line-geometry.js'
import { createRandom, pick, randomInteger, type Random } from '../util/random.js'
import type { CountingLine, FixtureData } from '../contract/schemas.js'

export interface GenerateOptions {
  /** How many cameras: ids cam-1 … cam-N. */
  cameras: number
  /** Lines per camera: ids line-1 … line-M within each camera. */
  linesPerCamera: number
  /** The same seed gives the same data, byte for byte. */
  seed?: number
}

// What a people counter in a terminal finds, people most often; lifetimes and point counts weighted as in use.
const CLASSES = ['person', 'person', 'person', 'roller bags', 'shoulder bags', 'carry-ons'] as const
const MAX_AGES = [15, 15, 30, 30, 30, 20, 25] as const
const POINT_COUNTS = [2, 2, 3, 4] as const
const PLACES = ['Gate', 'Boarding door', 'Jet bridge', 'Security lane', 'Passport control', 'Baggage claim', 'Retail entrance', 'Walkway'] as const
/** How far from its line a generated anchor lies, in pixels. */
const ANCHOR_DISTANCE = 120
/** How far a point strays from its line's course, in pixels: lines of 3 or 4 points bend. */
const BEND = 60
const EPOCH = Date.UTC(2023, 0, 1)
const YEAR_MS = 365 * 24 * 3600 * 1000

/**
 * The generated cameras one at a time, each with its lines, as --generate serves them: a million lines
 * are prepared camera by camera and never all exist as objects. Valid by construction (a test checks
 * it against the fixture checks), so they skip those checks.
 */
export function * generateCameras ({ cameras, linesPerCamera, seed = 1 }: GenerateOptions): Generator<CameraLines> {
  const random = createRandom(seed)
  // Every camera has the same line ids: one string each, shared.
  const lineIds = Array.from({ length: linesPerCamera }, (_, index) => `line-${index + 1}`)
  for (let camera = 1; camera <= cameras; camera++) {
    const cameraId = `cam-${camera}`
    yield {
      id: cameraId,
      lines: lineIds.map((id, index): CountingLine => {
        const createdAt = EPOCH + Math.floor(random() * YEAR_MS)
        const created = new Date(createdAt).toISOString()
        // Half the lines were never edited: their one timestamp is written once (this runs a million times).
        const updated = random() < 0.5 ? created : new Date(createdAt + Math.floor(random() * YEAR_MS)).toISOString()
        const points = linePoints(random)
        return {
          id,
          camera_id: cameraId,
          name: `${pick(random, PLACES)} ${index + 1}`,
          counting_line: lineString(points),
          anchor: wktPoint(pointBeside(points, random() < 0.5 ? 1 : -1, ANCHOR_DISTANCE)),
          coalesce_entries: random() < 0.85,
          class: pick(random, CLASSES),
          max_age: pick(random, MAX_AGES),
          created,
          updated
        }
      })
    }
  }
}

/**
 * 2 to 4 points across a 1920×1080 frame, mostly left to right, sometimes top to bottom, far enough from its
 * edges that the anchor beside them is in the frame too.
 */
function linePoints (random: Random): Pixel[] {
  const count = pick(random, POINT_COUNTS)
  const across = random() < 0.3
  const [length, breadth] = across ? [FRAME.height, FRAME.width] : [FRAME.width, FRAME.height]
  const start = randomInteger(random, 100, Math.floor(length * 0.3))
  const end = randomInteger(random, Math.ceil(length * 0.7), length - 100)
  const course = randomInteger(random, 250, breadth - 250)
  const points: Pixel[] = []
  for (let index = 0; index < count; index++) {
    const along = Math.round(start + (end - start) * index / (count - 1))
    const aside = count === 2 ? course : course + randomInteger(random, -BEND, BEND)
    points.push(across ? [aside, along] : [along, aside])
  }
  return points
}

/** Deterministic synthetic fixture data, for lists and camera counts no hand-written fixture has. */
export function generateFixtureData (options: GenerateOptions): FixtureData {
  const cameras: Array<{ id: string }> = []
  const lines: CountingLine[] = []
  for (const camera of generateCameras(options)) {
    cameras.push({ id: camera.id })
    for (const line of camera.lines) lines.push(line)
  }
  return { cameras, counting_lines: lines }
}
