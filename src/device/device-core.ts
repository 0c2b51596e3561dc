import type { DataStore } from '../data/data-store.js'
import type { Fault } from '../control/faults/fault-spec.js'
import { FaultControl, type FaultControlOptions } from '../control/faults/fault-control.js'
import { datasetFromData, type Dataset } from '../data/dataset.js'
import { RequestJournal, type JournalEntry, type RecordedRequest } from '../control/journal.js'
import { RequestRecorder } from '../control/request-recorder.js'
import type { RequestCounts } from '../control/request-counts.js'
import { DeviceEvents, type DeviceEvent } from '../control/device-events.js'
import { ScopedTokensSchema, type FixtureData, type ScopedToken } from '../contract/schemas.js'
import type { ControlVerbs } from '../control/control-verbs.js'
import type { DataSummary, RateLimitSummary, ScopedTokensSummary } from '../control/summaries.js'
import { RateLimiter, RateLimitSchema } from '../contract/rate-limit.js'
import { mergeScopes, type ScopeHolder } from '../contract/scoped-tokens.js'
import type { Admission, Admitted } from '../contract/bearer.js'
import type { CorsPolicy } from '../wire/cors.js'
import { listValueProblems } from '../util/value-errors.js'
import { checkerOnFirstUse } from '../util/checker-on-first-use.js'
import type { Clock } from '../util/clock.js'
import type { ReadDeviceSettings } from '../config/device-settings.js'

const scopedTokensChecker = checkerOnFirstUse(ScopedTokensSchema)
const rateLimitChecker = checkerOnFirstUse(RateLimitSchema)
import { apiErrors, type ApiError } from '../wire/errors.js'
import { SettingError, ScopedTokensError } from '../errors/errors.js'

/** What the control reads and replaces of the data served: a DataStore, or the MSW handlers' own store. */
export interface ControlledStore {
  readonly current: { readonly dataset: Dataset, readonly cameras: { readonly size: number }, readonly lineCount: number }
  replace: (dataset: Dataset) => void
  reset: () => void
}

/** A device's tokens: who is let in, and the scoped tokens setScopedTokens replaces. */
export interface DeviceTokens extends ScopeHolder {
  admit: (authorization: string | undefined) => Admission
}

/**
 * The settings a device acts on as it runs, as startMockNvr, a fleet and the MSW handlers resolve them: handed
 * over whole, so a new one of these reaches the device without a relay.
 */
export type DeviceRunSettings = Partial<Pick<ReadDeviceSettings, 'latency' | 'seed' | 'scopedTokens' | 'rateLimit'>> & Pick<FaultControlOptions, 'allowPrefer'> & {
  /** How many requests the journal keeps; 0 keeps none. */
  journalSize?: number
}

export interface DeviceCoreOptions<Store extends ControlledStore = DataStore, Tokens extends DeviceTokens = DeviceTokens> {
  /** The device's name: nvr for a single mock-nvr, nvr-001 in a fleet. */
  name: string
  store: Store
  tokens: Tokens
  cors: CorsPolicy
  /** The target /nvr/v1 is forwarded to, when proxying: use() then refuses, so no data is served past the target's token check. */
  proxiedTarget?: string
  /** Its settings at start, which reset() gives it again. */
  settings?: DeviceRunSettings
  /** The device's clock: its waits, the rate limit's refill and the journal's times read it. */
  clock: Clock
}

/**
 * A device without a port: its data, tokens, CORS policy, faults, latency, rate limit, journal, counts and
 * events, on its clock, with the verbs a test changes or asks them by. The server's Device adds its health,
 * drift and port; the MSW handlers serve this alone. Nothing of Node or Fastify, so a page can run it.
 */
export class DeviceCore<Store extends ControlledStore = DataStore, Tokens extends DeviceTokens = DeviceTokens> implements ControlVerbs {
  readonly name: string
  readonly store: Store
  readonly tokens: Tokens
  readonly cors: CorsPolicy
  readonly faultControl: FaultControl
  readonly journal: RequestJournal
  /** Where every answered request goes: the journal and the request log line. */
  readonly recorder: RequestRecorder
  /** The device's own changes: its health, its data's drift. */
  readonly events = new DeviceEvents()
  /** The rate limit per token of the device API. */
  readonly rateLimiter: RateLimiter
  /** The device's clock. */
  readonly clock: Clock
  readonly #startScopedTokens: readonly ScopedToken[]
  readonly #startRateLimit: number | undefined
  readonly #settings: DeviceRunSettings
  #scopedTokenCount: number

  readonly #proxiedTarget: string | undefined

  constructor ({ name, store, tokens, cors, proxiedTarget, clock, settings = {} }: DeviceCoreOptions<Store, Tokens>) {
    const { journalSize, scopedTokens = [], rateLimit, latency, allowPrefer, seed } = settings
    this.name = name
    this.store = store
    this.tokens = tokens
    this.cors = cors
    this.#proxiedTarget = proxiedTarget
    this.clock = clock
    const now = (): number => clock.now()
    this.journal = new RequestJournal(journalSize, now)
    this.recorder = new RequestRecorder(this.journal)
    this.faultControl = new FaultControl(clock, { latency, allowPrefer, seed })
    this.rateLimiter = new RateLimiter({ perSecond: rateLimit, now })
    // A copy, so reset() gives back what was given at start even if the caller's array changes since.
    this.#startScopedTokens = scopedTokens.map(({ token, cameras }) => ({ token, cameras: [...cameras] }))
    this.#startRateLimit = rateLimit
    this.#settings = settings
    this.#scopedTokenCount = mergeScopes(scopedTokens).size
  }

  /**
   * Serves this data from the next request on. It is validated like a fixture file; if it is refused, nothing
   * changes. While proxying the target it is refused (409): the target's data answers, behind its token check.
   */
  use (data: unknown, source = 'data'): DataSummary {
    if (this.#proxiedTarget !== undefined) throw apiErrors.dataFromTarget(this.#proxiedTarget)
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
    return this.dataSummary()
  }

  /** The dataset served now, as drift edits it. */
  get dataset (): Dataset {
    return this.store.current.dataset
  }

  /** Its changes of health and data edits (drift), oldest first. */
  eventList (): DeviceEvent[] {
    return this.events.entries()
  }

  /** Whether its waits last until someone moves its clock (POST /__admin/clock, clock.advance). */
  get clockIsManual (): boolean {
    return this.clock.manual
  }

  /** How much is served now: cameras and counting lines. */
  dataSummary (): DataSummary {
    const { cameras, lineCount } = this.store.current
    return { cameras: cameras.size, countingLines: lineCount }
  }

  /** The ids of the cameras served now, in the data's order. */
  cameraIds (): string[] {
    return [...this.store.current.dataset.cameraIds]
  }

  /** Requests recorded since the start or the last reset of the journal, dropped ones included. */
  get requestsTotal (): number {
    return this.journal.total
  }

  /** The CORS headers of an answer to a request from this origin, as name, value… */
  corsHeadersFor (origin: string | undefined): readonly string[] {
    return this.cors.headersFor(origin)
  }

  /** A request answered in full: its journal entry, its counts and its log line (the reqId made only for a line). */
  recordAnswered (request: RecordedRequest, reqId: string | (() => string), status: number, durationMs: number): void {
    this.recorder.answered(request, reqId, status, durationMs)
  }

  /** A request refused before routing, outside Fastify's request cycle: its journal entry and counts. */
  recordRefusedBeforeRouting (request: RecordedRequest, status: number, durationMs: number): void {
    this.recorder.refusedBeforeRouting(request, status, durationMs)
  }

  /** A connection closed on purpose without an answer: its journal entry and counts, with no status. */
  recordDropped (request: RecordedRequest, durationMs: number): void {
    this.recorder.dropped(request, durationMs)
  }

  /** The --latency wait of an answer no fault takes, in milliseconds (0 without --latency). */
  latencyWait (): number {
    return this.faultControl.latencyWait()
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

  /** Replaces the scoped tokens; throws ScopedTokensError naming each problem by its path, never a token, and changes nothing. */
  setScopedTokens (scoped: unknown): ScopedTokensSummary {
    const checkScopedTokens = scopedTokensChecker()
    if (!checkScopedTokens.Check(scoped)) throw new ScopedTokensError(listValueProblems(checkScopedTokens, scoped))
    this.tokens.setScopedTokens(scoped)
    this.#scopedTokenCount = mergeScopes(scoped).size
    return this.scopedTokens()
  }

  /** How many scoped tokens are in force; the tokens are never given back. */
  scopedTokens (): ScopedTokensSummary {
    return { scopedTokens: this.#scopedTokenCount }
  }

  /** Sets the rate limit per token, or turns it off with null; throws SettingError for anything but 1 to 1000000 or null. */
  setRateLimit (perSecond: number | null): RateLimitSummary {
    if (perSecond !== null && !rateLimitChecker().Check(perSecond)) {
      throw new SettingError('rateLimit', `rateLimit must be a whole number from 1 to 1000000, or null to turn it off, not ${JSON.stringify(perSecond)}`)
    }
    this.rateLimiter.set(perSecond ?? undefined)
    return this.rateLimit()
  }

  /** The rate limit in force. */
  rateLimit (): RateLimitSummary {
    return { rateLimit: this.rateLimiter.perSecond ?? null }
  }

  /** What the start-up log says of the settings that shape its answers: each line's fields and words; how many tokens, never which. */
  startLines (): Array<[fields: object, message: string]> {
    const { scopedTokens = [], rateLimit, latency, allowPrefer = false } = this.#settings
    const lines: Array<[object, string]> = []
    if (scopedTokens.length > 0) lines.push([{ scopedTokens: mergeScopes(scopedTokens).size }, 'scoped tokens see only their cameras; any other camera is 403'])
    if (rateLimit !== undefined) lines.push([{ rateLimit }, 'API requests are limited per token, per second; past the limit 429 with Retry-After'])
    if (latency !== undefined) lines.push([{ latency }, 'every API request is delayed'])
    if (allowPrefer) lines.push([{}, 'Prefer headers may ask for a status or a delay (code=…, delay=…)'])
    return lines
  }

  /**
   * Whether the device API lets this request in: the bearer check (a request no token opens counts against no
   * one), then the rate limit, which counts the request against its token. Its refusal, or who was let in.
   */
  admitRequest (authorization: string | undefined): Admitted | ApiError {
    const admission = this.tokens.admit(authorization)
    if (typeof admission === 'string') return apiErrors.unauthorized(admission)
    if (this.rateLimiter.active) {
      const retryAfter = this.rateLimiter.take(admission.token)
      if (retryAfter !== undefined) return apiErrors.rateLimited(retryAfter)
    }
    return admission
  }

  /** The device's requests as numbers since it started, for its metrics and a fleet's summary line. */
  get counts (): RequestCounts {
    return this.recorder.counts
  }

  /**
   * Whether a request's answer is its data alone: no fault, latency or Prefer that could change it, and no limit
   * that counts it. Then the pipeline's decision is a lookup, which the fast path may make by itself.
   */
  get answersPlainly (): boolean {
    return !this.faultControl.active && !this.rateLimiter.active
  }

  /**
   * Runs `then` once `ms` have passed on the device's clock: a plan's wait. The request is marked with the
   * journal's generation, so one still waiting when the journal is reset is not recorded in the new one.
   */
  wait (request: Pick<RecordedRequest, 'journalGeneration'>, ms: number, then: () => void): void {
    request.journalGeneration = this.journal.generation
    this.faultControl.wait(ms, then)
  }

  /** Back to the start: the start-up data, scoped tokens and rate limit, no faults, an empty journal, the random delays' sequence from its start. */
  reset (): void {
    // A manual clock nobody moves would answer a held request after the reset, as if it had come after it.
    if (this.clock.manual) this.faultControl.release()
    this.store.reset()
    this.faultControl.reset()
    this.journal.clear()
    this.tokens.setScopedTokens(this.#startScopedTokens)
    this.#scopedTokenCount = mergeScopes(this.#startScopedTokens).size
    this.rateLimiter.set(this.#startRateLimit)
    this.events.clear()
  }
}

function summarize ({ cameraIds, lines }: Dataset): DataSummary {
  return { cameras: cameraIds.length, countingLines: lines.length }
}
