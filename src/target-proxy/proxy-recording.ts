import { stat } from 'node:fs/promises'
import { loadFixtures } from '../data/fixtures.js'
import type { CountingLine, FixtureData } from '../contract/schemas.js'
import { checkWritable, fixtureText, writeFileAtomically } from '../target-client/fixture-file.js'

/**
 * The lists and lines that passed through the proxy and kept the contract, kept to be written as a
 * fixture file on stop: merged with what the file already holds, a camera's recorded list replacing its
 * lines there, a line retrieved on its own replacing or joining its camera's.
 */
export class ProxyRecording {
  readonly file: string
  readonly #cameras = new Map<string, { listed: boolean, lines: Map<string, CountingLine> }>()
  #changed = false

  constructor (file: string) {
    this.file = file
  }

  /** Refuses at the start what would fail at the stop: a file that cannot be written, or one whose fixtures cannot be merged with. */
  async check (): Promise<void> {
    await checkWritable(this.file, { replace: true })
    await this.#existing()
  }

  /** A camera's whole list, in the target's order. */
  keepList (camera: string, lines: CountingLine[]): void {
    this.#cameras.set(camera, { listed: true, lines: new Map(lines.map(line => [line.id, line])) })
    this.#changed = true
  }

  keepLine (line: CountingLine): void {
    const camera = this.#cameras.get(line.camera_id) ?? { listed: false, lines: new Map<string, CountingLine>() }
    camera.lines.set(line.id, line)
    this.#cameras.set(line.camera_id, camera)
    this.#changed = true
  }

  /** Writes the file atomically, merged with what it holds; nothing when nothing passed. Returns what it holds. */
  async write (): Promise<{ cameras: number, countingLines: number } | undefined> {
    if (!this.#changed) return undefined
    const merged = await this.#merged()
    await writeFileAtomically(this.file, fixtureText(merged), { replace: true })
    return { cameras: merged.cameras.length, countingLines: merged.counting_lines.length }
  }

  #existing (): Promise<{ cameraIds: string[], lines: CountingLine[] }> {
    return stat(this.file).then(() => loadFixtures(this.file), () => ({ cameraIds: [], lines: [] }))
  }

  async #merged (): Promise<Required<FixtureData>> {
    const existing = await this.#existing()
    const cameraIds = [...existing.cameraIds]
    const lines = new Map<string, Map<string, CountingLine>>(cameraIds.map(id => [id, new Map()]))
    for (const line of existing.lines) lines.get(line.camera_id)?.set(line.id, line)
    for (const [camera, recorded] of this.#cameras) {
      if (!lines.has(camera)) cameraIds.push(camera)
      const kept = recorded.listed ? new Map<string, CountingLine>() : lines.get(camera) ?? new Map<string, CountingLine>()
      for (const [id, line] of recorded.lines) kept.set(id, line)
      lines.set(camera, kept)
    }
    return { cameras: cameraIds.map(id => ({ id })), counting_lines: cameraIds.flatMap(id => [...(lines.get(id) as Map<string, CountingLine>).values()]) }
  }
}
