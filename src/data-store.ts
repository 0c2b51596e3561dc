import fastJson from 'fast-json-stringify'
import type { Dataset } from './fixtures.js'
import { CountingLineSchema, type CountingLine } from './schemas.js'

/** What is served for one camera, serialized once when the data is loaded or replaced. */
export interface ServedCamera {
  lines: CountingLine[]
  listBody: Buffer
  lineBodies: Map<string, Buffer>
}

export interface ServedData {
  dataset: Dataset
  cameras: Map<string, ServedCamera>
}

// The same serializer Fastify would build from the schema: the ten fields, in spec order, nothing more.
const serializeLine = fastJson(CountingLineSchema)
const SUCCESS_PREFIX = '{"result":{"success":true,"httpCode":200},"content":'

/** Serializes every answer of a dataset up front, so a request is a lookup and a write. */
export function prepareServedData (dataset: Dataset): ServedData {
  const cameras = new Map<string, ServedCamera>()
  const lineJson = new Map<ServedCamera, string[]>()
  for (const id of dataset.cameraIds) {
    const camera: ServedCamera = { lines: [], listBody: EMPTY, lineBodies: new Map() }
    cameras.set(id, camera)
    lineJson.set(camera, [])
  }
  for (const line of dataset.lines) {
    const camera = cameras.get(line.camera_id) as ServedCamera
    const json = serializeLine(line)
    camera.lines.push(line)
    camera.lineBodies.set(line.id, Buffer.from(`${SUCCESS_PREFIX}${json}}`))
    lineJson.get(camera)?.push(json)
  }
  for (const [camera, json] of lineJson) {
    camera.listBody = Buffer.from(`${SUCCESS_PREFIX}[${json.join(',')}]}`)
  }
  return { dataset, cameras }
}

const EMPTY = Buffer.alloc(0)

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

  /** Serves this dataset and makes it what reset() returns to: the fixture files were edited. */
  rebase (dataset: Dataset): void {
    this.#initial = prepareServedData(dataset)
    this.#current = this.#initial
  }
}
