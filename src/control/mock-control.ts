import type { DataStore } from '../data/data-store.js'
import type { Fault } from './faults/fault-spec.js'
import { FaultControl, type FaultControlOptions } from './faults/fault-control.js'
import { datasetFromData, type Dataset } from '../data/dataset.js'
import { RequestJournal, type JournalEntry } from './journal.js'
import { RequestRecorder } from './request-recorder.js'
import type { FixtureData } from '../wire/schemas.js'
import type { ControlVerbs, DataSummary } from './control-verbs.js'
import { apiErrors } from '../wire/errors.js'

/** What the control reads and replaces of the data served: a DataStore, or the MSW handlers' own store. */
export interface ControlledStore {
  readonly current: { readonly dataset: Dataset, readonly cameras: { readonly size: number }, readonly lineCount: number }
  replace: (dataset: Dataset) => void
  reset: () => void
}

export interface MockControlOptions<Store extends ControlledStore = DataStore> extends Omit<FaultControlOptions, 'recorder'> {
  store: Store
  /** How many requests the journal keeps; 0 keeps none. */
  journalSize?: number
  /** The device /nvr/v1 is forwarded to, when proxying: use() then refuses, so no data is served past the device's token check. */
  proxiedDevice?: string
}

/**
 * Everything a test can change or ask at run time: the data, the faults, the request journal.
 * The startMockNvr handle and the admin API both go through it, so they cannot drift apart.
 */
export class MockControl<Store extends ControlledStore = DataStore> implements ControlVerbs {
  readonly store: Store
  readonly faultControl: FaultControl
  readonly journal: RequestJournal
  /** Where every answered request goes: the journal and the request log line. */
  readonly recorder: RequestRecorder

  readonly #proxiedDevice: string | undefined

  constructor ({ store, journalSize, proxiedDevice, ...faultOptions }: MockControlOptions<Store>) {
    this.store = store
    this.#proxiedDevice = proxiedDevice
    this.journal = new RequestJournal(journalSize)
    this.recorder = new RequestRecorder(this.journal)
    this.faultControl = new FaultControl({ ...faultOptions, recorder: this.recorder })
  }

  /**
   * Serves this data from the next request on. It is validated like a fixture file; if it is refused, nothing
   * changes. While proxying a device it is refused (409): the device's data answers, behind its token check.
   */
  use (data: unknown, source = 'data'): DataSummary {
    if (this.#proxiedDevice !== undefined) throw apiErrors.dataFromDevice(this.#proxiedDevice)
    const dataset = datasetFromData(data, source)
    this.store.replace(dataset)
    return summarize(dataset)
  }

  /** The data being served, in the shape of a fixture file. */
  data (): FixtureData {
    const { cameraIds, lines } = this.store.current.dataset
    return { cameras: cameraIds.map(id => ({ id })), counting_lines: lines }
  }

  /** Serves the start-up data again (with watch mode on, what the fixture files now hold). */
  resetData (): DataSummary {
    this.store.reset()
    const { cameras, lineCount } = this.store.current
    return { cameras: cameras.size, countingLines: lineCount }
  }

  /** The requests received, oldest first; admin calls are not in it. */
  requests (): JournalEntry[] {
    return this.journal.entries()
  }

  resetRequests (): void {
    this.journal.clear()
  }

  /** Injects a fault; throws InvalidFaultError naming each problem of the spec. */
  injectFault (spec: unknown): Fault {
    return this.faultControl.inject(spec)
  }

  /** The faults in force, oldest first. */
  faults (): Fault[] {
    return this.faultControl.list()
  }

  /** Clears one fault by id (false when there is none), or all of them. */
  clearFaults (id?: string): boolean {
    return this.faultControl.clear(id)
  }

  /** Back to the start: the start-up data, no faults, an empty journal, the random delays' sequence from its start. */
  reset (): void {
    this.store.reset()
    this.faultControl.reset()
    this.journal.clear()
  }
}

function summarize ({ cameraIds, lines }: Dataset): DataSummary {
  return { cameras: cameraIds.length, countingLines: lines.length }
}
