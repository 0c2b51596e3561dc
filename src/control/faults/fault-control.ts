import { pickDelay, type DelayRange } from '../../util/delay.js'
import { apiErrors } from '../../wire/errors.js'
import { effectOf, FAULT_KIND_NAMES, type Answer, type FaultEffect, type FaultKindName } from './fault-kinds.js'
import { appliesTo, delayRangeOf, parseFaultSpec, type Fault, type ScopedRequest } from './fault-spec.js'
import { parsePreferences } from '../prefer.js'
import { createRandom, type Random } from '../../util/random.js'
import type { Clock, ClockTimer } from '../../util/clock.js'

export interface FaultControlOptions {
  /** Added to every API answer that no fault or Prefer header delays, a refused token's 401 too. */
  latency?: DelayRange
  /** Honour `Prefer: code=…` and `Prefer: delay=…` on a request. */
  allowPrefer?: boolean
  /** Seed of the delay ranges' random choices; reset() starts the sequence again. */
  seed?: number
}

interface HeldRequest {
  // Undefined only while the clock sets it: a clock may run a wait of 0 at once.
  timer: ClockTimer | undefined
  resume: () => void
}

/** A request as faults read it: its operation and parameters for their scope, and its Prefer header. */
export interface FaultedRequest extends ScopedRequest {
  prefer: string | undefined
}

/** What the faults, Prefer and latency make of one request. */
export interface FaultPlan {
  waitMs: number
  /** The id of the fault that shaped the answer, 'prefer', or null. */
  fault: string | null
  /** Preference-Applied, when Prefer was honoured. */
  headers: readonly string[]
  /** What happens instead of the usual answer; 'none' lets it be answered as usual. */
  effect: FaultEffect | 'none'
}

const NO_HEADERS: readonly string[] = []

/** What a fault that took a request asked for: one of its kinds, or a delay alone; or a Prefer header. */
export type InjectedKind = FaultKindName | 'delay' | 'prefer'
export const INJECTED_KINDS: readonly InjectedKind[] = [...FAULT_KIND_NAMES, 'delay', 'prefer']
const NONE_INJECTED: Readonly<Record<InjectedKind, number>> = Object.freeze(Object.fromEntries(INJECTED_KINDS.map(kind => [kind, 0])) as Record<InjectedKind, number>)

/**
 * Injected faults, --latency and Prefer handling for the device API, as data: what a request meets is decided
 * by planFor(), and carried out by whoever answers it. When nothing is on, `active` is false and no request asks.
 */
export class FaultControl {
  readonly #latency: DelayRange | undefined
  readonly #allowPrefer: boolean
  readonly #seed: number
  readonly #clock: Clock
  // The requests waiting on the clock, made when the first one waits: release() lets them go.
  #held: Set<HeldRequest> | undefined
  // Made when a delay is first picked: a device without latency or faults never needs it.
  #random: Random | undefined
  /** Oldest first; the newest matching fault wins, as a later override should. */
  #faults: Fault[] = []
  #nextId = 1
  #active: boolean
  #injected: Record<InjectedKind, number> | undefined

  constructor (clock: Clock, { latency, allowPrefer = false, seed = 1 }: FaultControlOptions = {}) {
    this.#latency = latency
    this.#allowPrefer = allowPrefer
    this.#seed = seed
    this.#clock = clock
    this.#active = this.#isActive()
  }

  /** The requests faults and Prefer took, by kind, since the device started; no reset clears it. */
  get injected (): Readonly<Record<InjectedKind, number>> {
    return this.#injected ?? NONE_INJECTED
  }

  #count (kind: InjectedKind): void {
    (this.#injected ??= { ...NONE_INJECTED })[kind]++
  }

  #pick (delay: DelayRange): number {
    this.#random ??= createRandom(this.#seed)
    return pickDelay(this.#random, delay)
  }

  /** Whether any fault, latency or Prefer handling may change an answer: when not, no request needs a plan. */
  get active (): boolean {
    return this.#active
  }

  /** The --latency wait of an answer no fault takes, in milliseconds (0 without --latency). */
  latencyWait (): number {
    return this.#latency === undefined ? 0 : this.#pick(this.#latency)
  }

  /** Runs `resume` once `ms` have passed on the device's clock, or, on a manual clock, when release() lets the request go. */
  wait (ms: number, resume: () => void): void {
    // Only a manual clock's waits are let go early (a reset, a close): the real clock's end by themselves.
    if (!this.#clock.manual) {
      this.#clock.setTimer(resume, ms)
      return
    }
    const held = this.#held ??= new Set()
    const request: HeldRequest = { timer: undefined, resume }
    held.add(request)
    request.timer = this.#clock.setTimer(() => {
      held.delete(request)
      resume()
    }, ms)
  }

  /** Lets every waiting request go on at once: a manual clock nobody moves would otherwise hold them, and a close, for ever. */
  release (): void {
    const held = this.#held
    if (held === undefined) return
    const letGo = [...held]
    held.clear()
    for (const request of letGo) {
      this.#clock.clearTimer(request.timer as ClockTimer)
      request.resume()
    }
  }

  /**
   * What an accepted request meets: Prefer, when it is honoured and the request has one, or else the newest
   * fault whose scope takes the request (one of its `times` is used up), with their delay or --latency.
   */
  planFor (request: FaultedRequest): FaultPlan {
    const header = this.#allowPrefer ? request.prefer : undefined
    const preferences = header === undefined ? undefined : parsePreferences(header)
    if (typeof preferences === 'string') return { waitMs: 0, fault: null, headers: NO_HEADERS, effect: apiErrors.invalidPrefer(preferences) }
    if (preferences !== undefined) {
      this.#count('prefer')
      const status = preferences.code === undefined || preferences.code === 200 ? undefined : preferences.code
      return this.#planned(preferences.delay ?? this.#latency, 'prefer', ['preference-applied', preferences.applied], status === undefined ? undefined : { status })
    }
    const fault = this.#consumeMatch(request)
    if (fault === undefined) return this.#planned(this.#latency, null, NO_HEADERS, undefined)
    this.#count(FAULT_KIND_NAMES.find(kind => fault[kind] !== undefined) ?? 'delay')
    return this.#planned(delayRangeOf(fault) ?? this.#latency, fault.id, NO_HEADERS, fault)
  }

  #planned (delay: DelayRange | undefined, fault: string | null, headers: readonly string[], answer: Answer | undefined): FaultPlan {
    const waitMs = delay === undefined ? 0 : this.#pick(delay)
    return { waitMs, fault, headers, effect: effectOf(answer) ?? 'none' }
  }

  /** Checks and adds a fault; throws InvalidFaultError naming each problem. */
  inject (spec: unknown): Fault {
    const checked = parseFaultSpec(spec)
    const fault: Fault = { id: `fault-${this.#nextId++}`, ...checked, remaining: checked.times ?? null }
    this.#faults.push(fault)
    this.#active = true
    return { ...fault }
  }

  /** The faults still in force, oldest first. */
  list (): Fault[] {
    return this.#faults.map(fault => ({ ...fault }))
  }

  /** Removes one fault by id (false if there is none), or every fault. */
  clear (id?: string): boolean {
    const before = this.#faults.length
    this.#faults = id === undefined ? [] : this.#faults.filter(fault => fault.id !== id)
    this.#active = this.#isActive()
    return id === undefined || this.#faults.length < before
  }

  /** No faults, ids from fault-1 again, and the random delays' sequence from its start. */
  reset (): void {
    this.clear()
    this.#nextId = 1
    this.#random = undefined
  }

  #isActive (): boolean {
    return this.#faults.length > 0 || this.#latency !== undefined || this.#allowPrefer
  }

  #consumeMatch (request: ScopedRequest): Fault | undefined {
    for (let index = this.#faults.length - 1; index >= 0; index--) {
      const fault = this.#faults[index] as Fault
      if (!appliesTo(fault, request)) continue
      if (fault.remaining !== null && --fault.remaining === 0) {
        this.#faults.splice(index, 1)
        this.#active = this.#isActive()
      }
      return fault
    }
    return undefined
  }
}
