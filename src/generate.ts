import { createRandom, pick, randomInteger } from './random.js'
import type { CountingLine, FixtureData } from './schemas.js'

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

/** Deterministic synthetic fixture data, for lists and camera counts no hand-written fixture has. */
export function generateFixtureData ({ cameras, linesPerCamera, seed = 1 }: GenerateOptions): FixtureData {
  const random = createRandom(seed)
  const cameraList = Array.from({ length: cameras }, (_, index) => ({ id: `cam-${index + 1}` }))
  const lines: CountingLine[] = []
  for (const { id: cameraId } of cameraList) {
    for (let number = 1; number <= linesPerCamera; number++) {
      const created = EPOCH + Math.floor(random() * YEAR_MS)
      const updated = random() < 0.5 ? created : created + Math.floor(random() * YEAR_MS)
      const y = (randomInteger(random, 100, 900) / 1000).toFixed(3)
      lines.push({
        id: `line-${number}`,
        camera_id: cameraId,
        name: `${pick(random, PLACES)} ${number}`,
        counting_line: `0.100,${y};0.900,${y}`,
        anchor: pick(random, ANCHORS),
        coalesce_entries: random() < 0.5,
        class: pick(random, CLASSES),
        max_age: randomInteger(random, 10, 180),
        created: new Date(created).toISOString(),
        updated: new Date(updated).toISOString()
      })
    }
  }
  return { cameras: cameraList, counting_lines: lines }
}
