import type { CameraLines } from './dataset.js'
import { createRandom, pick, randomInteger } from '../util/random.js'
import type { CountingLine, FixtureData } from '../wire/schemas.js'

export interface GenerateOptions {
  /** How many cameras: ids cam-1 … cam-N. */
  cameras: number
  /** Lines per camera: ids line-1 … line-M within each camera. */
  linesPerCamera: number
  /** The same seed gives the same data, byte for byte. */
  seed?: number
}

const CLASSES = ['person', 'car', 'bicycle', 'truck'] as const
const ANCHORS = ['bottom_center', 'center', 'top_center'] as const
const PLACES = ['Entrance', 'Exit', 'Gate', 'Door', 'Lane', 'Ramp', 'Aisle', 'Walkway'] as const
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
        const created = EPOCH + Math.floor(random() * YEAR_MS)
        const updated = random() < 0.5 ? created : created + Math.floor(random() * YEAR_MS)
        const y = (randomInteger(random, 100, 900) / 1000).toFixed(3)
        return {
          id,
          camera_id: cameraId,
          name: `${pick(random, PLACES)} ${index + 1}`,
          counting_line: `0.100,${y};0.900,${y}`,
          anchor: pick(random, ANCHORS),
          coalesce_entries: random() < 0.5,
          class: pick(random, CLASSES),
          max_age: randomInteger(random, 10, 180),
          created: new Date(created).toISOString(),
          updated: new Date(updated).toISOString()
        }
      })
    }
  }
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
