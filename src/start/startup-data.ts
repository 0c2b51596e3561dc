import type { CameraLines } from '../data/dataset.js'
import { loadFixtures } from '../data/fixtures.js'
import { datasetFromData, type Dataset } from '../data/dataset.js'
import { generateCameras } from '../data/generate.js'
import type { GenerateSize } from '../data/generate-size.js'
import type { MockNvrOptions } from '../config/options.js'
import { OptionsError } from '../errors/errors.js'
import { type ResolvedOptions } from '../config/options-schema.js'

/** The data to serve at start-up, where it came from, and anything a user must know to ask for it. */
export interface StartupData {
  /** Fixture or in-memory data, or generated cameras, made one at a time as they are prepared. */
  data: Dataset | Iterable<CameraLines>
  /** For the start-up log: the fixture path, 'in-memory data' or 'generated data'. */
  source: string
  /** A sentence naming the generated ids, so a user knows which cameras to ask for. */
  note?: string
}

/** Loads fixtures, in-memory data or generated data; resolveOptions has checked generate against fixtures and watch. */
export async function loadStartupData (options: ResolvedOptions & Pick<MockNvrOptions, 'data'>, fixtures: string): Promise<StartupData> {
  const { generate, data, watch } = options
  if (generate !== undefined && data !== undefined) throw exclusive('generate', 'data', 'generated data is served instead of the data given')
  if (watch && data !== undefined) throw exclusive('watch', 'data', 'only fixture files can be watched')

  if (generate !== undefined) {
    return {
      data: generateCameras({ ...generate, seed: options.seed }),
      source: 'generated data',
      note: describeGenerated(generate, options.seed)
    }
  }
  if (data !== undefined) return { data: datasetFromData(data), source: 'in-memory data' }
  return { data: await loadFixtures(fixtures), source: fixtures }
}

/** E.g. "generated cameras cam-1 … cam-100, each with lines line-1 … line-20 (seed 1)". */
export function describeGenerated ({ cameras, linesPerCamera }: GenerateSize, seed: number): string {
  const lines = linesPerCamera === 0 ? 'no lines' : range('line', linesPerCamera)
  return `generated ${range('camera', cameras)}, each with ${lines} (seed ${seed})`
}

/** "camera cam-1" or "cameras cam-1 … cam-N"; lines likewise. */
function range (noun: 'camera' | 'line', count: number): string {
  const prefix = noun === 'camera' ? 'cam' : 'line'
  return count === 1 ? `${noun} ${prefix}-1` : `${noun}s ${prefix}-1 … ${prefix}-${count}`
}

function exclusive (option: string, other: string, reason: string): OptionsError {
  return new OptionsError(`option ${option} cannot be combined with option ${other}: ${reason}`)
}
