import type { FastifyBaseLogger } from 'fastify'
import type { Clock, ClockTimer } from '../util/clock.js'
import { createRandom, type Random } from '../util/random.js'
import type { DeviceEvents } from '../control/device-events.js'
import type { Dataset } from '../data/dataset.js'
import { driftEdit } from './drift.js'

export interface DataDriftOptions {
  clock: Clock
  /** Milliseconds between two edits. */
  every: number
  /** Seed of the edits: the same seed edits the same lines the same way. */
  seed: number
  /** What serves the data: each edit goes through its use(), validated like a fixture file. */
  device: { use: (data: unknown, source: string) => unknown, readonly dataset: Dataset }
  events: DeviceEvents
  log: FastifyBaseLogger
}

/** A device's data edited every `every` ms, as a site operator would: seeded, valid, `updated` moving. */
export class DataDrift {
  readonly #options: DataDriftOptions
  #random: Random
  #timer: ClockTimer | undefined

  constructor (options: DataDriftOptions) {
    this.#options = options
    this.#random = createRandom(options.seed)
    this.#schedule()
  }

  /** The edits from their start again: the same sequence as after start-up. */
  reset (): void {
    this.#random = createRandom(this.#options.seed)
    this.#schedule()
  }

  stop (): void {
    if (this.#timer !== undefined) this.#options.clock.clearTimer(this.#timer)
    this.#timer = undefined
  }

  #schedule (): void {
    this.stop()
    this.#timer = this.#options.clock.setTimer(() => this.#edit(), this.#options.every)
  }

  #edit (): void {
    const { clock, device, events, log } = this.#options
    const result = driftEdit(device.dataset, this.#random, clock.now())
    if (result !== undefined) {
      const { dataset, edit } = result
      try {
        device.use({ cameras: dataset.cameraIds.map(id => ({ id })), counting_lines: dataset.lines }, 'drift')
        events.record({ kind: 'data', ...edit })
        log.info(edit, `drift: line ${edit.line} of camera ${edit.camera} ${edit.edit}`)
      // Drift makes valid data; should it ever not, the edit is skipped and logged, never a crash.
      } catch (error) {
        log.error(`drift: an edit was refused: ${(error as Error).message}`)
      }
    }
    this.#schedule()
  }
}
