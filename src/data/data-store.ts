import fastJson from 'fast-json-stringify'
import { camerasOf, type CameraLines, type Dataset } from './dataset.js'

import { CountingLineSchema, type CountingLine } from '../contract/schemas.js'
import { contentOf, successEnvelopeOf } from '../contract/envelope.js'

// The same serializer Fastify would build from the schema: the ten fields, in spec order, nothing more.
const serializeLine = fastJson(CountingLineSchema)

/**
 * What is served for one camera, serialized once when the data is loaded or replaced: the list answer,
 * and every line's answer back to back in one more buffer, each handed out as a view of its bytes.
 */
export class ServedCamera {
  /** The list answer, as sent. */
  readonly listBody: Buffer
  readonly #lineBodies: Buffer
  readonly #lineIndex = new Map<string, number>()
  // Where each line's answer ends in #lineBodies, in bytes, in list order; each starts where the last ended.
  readonly #lineEnds: Uint32Array
  // Each line's answer as a view of #lineBodies, made when first asked for: a request then makes none.
  readonly #lineViews: Array<Buffer | undefined> = []

  constructor (lines: readonly CountingLine[]) {
    const json = lines.map(line => serializeLine(line))
    const answers = json.map(successEnvelopeOf)
    this.#lineEnds = new Uint32Array(lines.length)
    let end = 0
    answers.forEach((answer, index) => {
      this.#lineIndex.set((lines[index] as CountingLine).id, index)
      end += Buffer.byteLength(answer)
      this.#lineEnds[index] = end
    })
    this.#lineBodies = Buffer.from(answers.join(''))
    this.listBody = Buffer.from(successEnvelopeOf(`[${json.join(',')}]`))
  }

  get lineCount (): number {
    return this.#lineIndex.size
  }

  /** The retrieve answer of one line, or undefined when the camera has no line with this id. */
  lineBody (lineId: string): Buffer | undefined {
    const index = this.#lineIndex.get(lineId)
    return index === undefined ? undefined : this.#answer(index)
  }

  /** The first lines in list order, read back from their answers (for examples; requests never need objects). */
  firstLines (count: number): CountingLine[] {
    const shown = Math.min(count, this.lineCount)
    return Array.from({ length: shown }, (_, index) => contentOf<CountingLine>(this.#answer(index).toString()))
  }

  #answer (index: number): Buffer {
    let view = this.#lineViews[index]
    if (view === undefined) {
      view = this.#lineBodies.subarray(index === 0 ? 0 : this.#lineEnds[index - 1], this.#lineEnds[index])
      this.#lineViews[index] = view
    }
    return view
  }
}

export interface ServedData {
  /**
   * The data served, as a dataset: the one given (fixtures or in-memory data), or for generated data,
   * whose objects are not kept, read back from the served bytes on each call.
   */
  readonly dataset: Dataset
  readonly cameras: Map<string, ServedCamera>
  /** Lines in all. */
  readonly lineCount: number
  /** The first line in list order (of the files, or of the generated cameras), if any. */
  readonly firstLine: CountingLine | undefined
}

/**
 * Serializes every answer up front, so a request is a lookup and a write. Cameras are prepared one at a
 * time: generated cameras are made as they are asked for, so their line objects never all exist at once.
 */
export function prepareServedData (data: Dataset | Iterable<CameraLines>): ServedData {
  const given = Symbol.iterator in data ? { cameraLines: data } : { dataset: data, cameraLines: camerasOf(data) }
  const cameras = new Map<string, ServedCamera>()
  let lineCount = 0
  let firstLine = given.dataset?.lines[0]
  for (const { id, lines } of given.cameraLines) {
    cameras.set(id, new ServedCamera(lines))
    lineCount += lines.length
    firstLine ??= lines[0]
  }
  return {
    get dataset () { return given.dataset ?? readBack(cameras) },
    cameras,
    lineCount,
    firstLine
  }
}

// The bytes are the schema's serialization of the lines, so parsing them gives the lines back, field for field.
function readBack (cameras: ReadonlyMap<string, ServedCamera>): Dataset {
  const lines: CountingLine[] = []
  for (const camera of cameras.values()) {
    for (const line of contentOf<CountingLine[]>(camera.listBody.toString())) lines.push(line)
  }
  return { cameraIds: [...cameras.keys()], lines }
}

/** The data being served. Replacing it swaps every prepared answer at once. */
export class DataStore {
  #initial: ServedData
  #current: ServedData

  constructor (data: Dataset | Iterable<CameraLines>) {
    this.#initial = prepareServedData(data)
    this.#current = this.#initial
  }

  /** A store of data prepared already: the devices of a fleet that serve the same fixtures share its bytes. */
  static serving (served: ServedData): DataStore {
    const store = new DataStore([])
    store.#initial = served
    store.#current = served
    return store
  }

  get current (): ServedData {
    return this.#current
  }

  camera (id: string): ServedCamera | undefined {
    return this.#current.cameras.get(id)
  }

  replace (data: Dataset | Iterable<CameraLines>): void {
    this.#current = prepareServedData(data)
  }

  reset (): void {
    this.#current = this.#initial
  }

  /**
   * Serves this data and makes it what reset() returns to: the fixture files were edited. The devices that serve
   * the same files are given the same prepared data, so they share its bytes as they did at start.
   */
  rebase (data: Dataset | ServedData): void {
    this.#initial = 'cameras' in data ? data : prepareServedData(data)
    this.#current = this.#initial
  }
}
