import { successEnvelopeOf } from '../contract/envelope.js'
import type { ControlledStore } from '../device/device-core.js'
import { camerasOf, type Dataset } from '../data/dataset.js'
import { CountingLineSchema, type CountingLine } from '../contract/schemas.js'

// The schema's fields in its order: the server's serializer writes these, in this order, and nothing more.
const FIELDS = Object.keys(CountingLineSchema.properties) as Array<keyof CountingLine>

/** One line as the server serializes it: the schema's fields in the schema's order. */
export function lineJson (line: CountingLine): string {
  const ordered: Partial<Record<keyof CountingLine, unknown>> = {}
  for (const field of FIELDS) ordered[field] = line[field]
  return JSON.stringify(ordered)
}

/** The answers of one camera, as text: its list, and each line's answer by line id. */
export class ServedCameraText {
  readonly listBody: string
  readonly #lineBodies: ReadonlyMap<string, string>

  constructor (listBody: string, lineBodies: ReadonlyMap<string, string>) {
    this.listBody = listBody
    this.#lineBodies = lineBodies
  }

  /** The retrieve answer of one line, or undefined when the camera has no line with this id. */
  lineBody (lineId: string): string | undefined {
    return this.#lineBodies.get(lineId)
  }
}

interface ServedText {
  dataset: Dataset
  cameras: ReadonlyMap<string, ServedCameraText>
  lineCount: number
}

/** The data the MSW handlers serve, with every answer prepared as the server prepares its bytes. */
export class ServedTextStore implements ControlledStore {
  readonly #initial: ServedText
  #current: ServedText

  constructor (dataset: Dataset) {
    this.#initial = prepare(dataset)
    this.#current = this.#initial
  }

  get current (): ServedText {
    return this.#current
  }

  replace (dataset: Dataset): void {
    this.#current = prepare(dataset)
  }

  reset (): void {
    this.#current = this.#initial
  }

  /** A camera's prepared answers, as the server's store gives its bytes. */
  camera (id: string): ServedCameraText | undefined {
    return this.#current.cameras.get(id)
  }
}

function prepare (dataset: Dataset): ServedText {
  const cameras = new Map<string, ServedCameraText>()
  for (const { id, lines } of camerasOf(dataset)) {
    const json = lines.map(lineJson)
    const lineBodies = new Map<string, string>()
    lines.forEach((line, index) => lineBodies.set(line.id, successEnvelopeOf(json[index] as string)))
    cameras.set(id, new ServedCameraText(successEnvelopeOf(`[${json.join(',')}]`), lineBodies))
  }
  return { dataset, cameras, lineCount: dataset.lines.length }
}
