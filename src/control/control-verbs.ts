import type { Fault, FaultSpec } from './faults/fault-spec.js'
import type { JournalEntry } from './journal.js'
import type { FixtureData } from '../contract/schemas.js'
import { RUN_TIME_SETTINGS, setterOf } from '../config/settings.js'
import type { DataSummary, SettingVerbs } from './summaries.js'

/** What a test can change or ask at run time, by the names the handle of startMockNvr gives them. */
export interface ControlVerbs extends SettingVerbs {
  /** Serves this data from the next request on; validated like a fixture file, it throws FixtureError and changes nothing if refused. */
  use: (data: FixtureData) => DataSummary
  /** The data being served, in the shape of a fixture file. */
  data: () => FixtureData
  /** Serves the start-up data again; with watch on, what the fixture files hold now. */
  resetData: () => DataSummary
  /** The requests received (admin calls aside), oldest first; the journal keeps the last journalSize. */
  requests: () => JournalEntry[]
  /** Empties the request journal. */
  resetRequests: () => void
  /** Injects a fault and returns it with its id; throws InvalidFaultError naming each problem of the spec. */
  injectFault: (spec: FaultSpec) => Fault
  /** The faults in force, oldest first, with how many requests each still applies to. */
  faults: () => Fault[]
  /** Clears one fault by id (false when there is none), or every fault. */
  clearFaults: (id?: string) => boolean
  /** Back to the start-up state: the start-up data, scoped tokens and rate limit, no faults, an empty journal. */
  reset: () => void
}

/** The verbs of a control object as plain functions, to hand out on a handle. */
export function verbsOf (control: ControlVerbs): ControlVerbs {
  return {
    use: data => control.use(data),
    data: () => control.data(),
    resetData: () => control.resetData(),
    requests: () => control.requests(),
    resetRequests: () => control.resetRequests(),
    injectFault: spec => control.injectFault(spec),
    faults: () => control.faults(),
    clearFaults: id => control.clearFaults(id),
    ...settingVerbsOf(control),
    reset: () => control.reset()
  }
}

function settingVerbsOf (control: SettingVerbs): SettingVerbs {
  return Object.fromEntries(RUN_TIME_SETTINGS.map(([key]) => {
    const verb = setterOf(key) as keyof SettingVerbs
    const set = control[verb] as (value: unknown) => unknown
    return [verb, (value: unknown) => set.call(control, value)]
  })) as unknown as SettingVerbs
}
