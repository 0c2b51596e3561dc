import fastJson from 'fast-json-stringify'
import type { Dataset } from './fixtures.js'
import { CountingLineSchema, type CountingLine } from './schemas.js'

// The same serializer Fastify would build from the schema: the ten fields, in spec order, nothing more.
const serializeLine = fastJson(CountingLineSchema)
const SUCCESS_PREFIX = '{"result":{"success":true,"httpCode":200},"content":'
const LINE_PREFIX = Buffer.from(SUCCESS_PREFIX)
const LINE_SUFFIX = Buffer.from('}')

/**
 * What is served for one camera, serialized once when the data is loaded or replaced. The list answer is
 * kept whole; a line's answer is built from its slice of the list, so each line's bytes are stored once.
 */
export class ServedCamera {
  /** The list answer, as sent. */
  readonly listBody: Buffer
  readonly #lineIndex = new Map<string, number>()
  // Start and end of each line's JSON in listBody, in bytes: two numbers per line, in list order.
  readonly #lineBounds: Uint32Array

  constructor (lines: readonly CountingLine[]) {
    const json = lines.map(line => serializeLine(line))
    this.#lineBounds = new Uint32Array(lines.length * 2)
    let offset = Buffer.byteLength(SUCCESS_PREFIX) + 1
    json.forEach((text, index) => {
      this.#lineIndex.set((lines[index] as CountingLine).id, index)
      const end = offset + Buffer.byteLength(text)
      this.#lineBounds[index * 2] = offset
      this.#lineBounds[index * 2 + 1] = end
      offset = end + 1
    })
    this.listBody = Buffer.from(`${SUCCESS_PREFIX}[${json.join(',')}]}`)
  }

  get lineCount (): number {
    return this.#lineIndex.size
  }

  /** The retrieve answer of one line, or undefined when the camera has no line with this id. */
  lineBody (lineId: string): Buffer | undefined {
    const index = this.#lineIndex.get(lineId)
    if (index === undefined) return undefined
    const start = this.#lineBounds[index * 2] as number
    const end = this.#lineBounds[index * 2 + 1] as number
    const line = this.listBody.subarray(start, end)
    return Buffer.concat([LINE_PREFIX, line, LINE_SUFFIX], LINE_PREFIX.length + line.length + LINE_SUFFIX.length)
  }
}

export interface ServedData {
  dataset: Dataset
  cameras: Map<string, ServedCamera>
}

/** Serializes every answer of a dataset up front, so a request is a lookup and a write. */
export function prepareServedData (dataset: Dataset): ServedData {
  const linesByCamera = new Map<string, CountingLine[]>(dataset.cameraIds.map(id => [id, []]))
  for (const line of dataset.lines) linesByCamera.get(line.camera_id)?.push(line)
  const cameras = new Map<string, ServedCamera>()
  for (const [id, lines] of linesByCamera) cameras.set(id, new ServedCamera(lines))
  return { dataset, cameras }
}

/** The data being served. Replacing it swaps every prepared answer at once. */
export class DataStore {
  #initial: ServedData
  #current: ServedData

  constructor (dataset: Dataset) {
    this.#initial = prepareServedData(dataset)
    this.#current = this.#initial
  }

  get current (): ServedData {
    return this.#current
  }

  camera (id: string): ServedCamera | undefined {
    return this.#current.cameras.get(id)
  }

  replace (dataset: Dataset): void {
    this.#current = prepareServedData(dataset)
  }

  reset (): void {
    this.#current = this.#initial
  }
}
