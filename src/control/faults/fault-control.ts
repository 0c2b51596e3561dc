import type { FastifyBaseLogger, FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify'
import { pickDelay, type DelayRange } from '../../util/delay.js'
import { apiErrors } from '../../wire/errors.js'
import { carryOut, type Answer } from './fault-kinds.js'
import { appliesTo, delayRangeOf, parseFaultSpec, type Fault } from './fault-spec.js'
import type { RequestRecorder } from '../request-recorder.js'
import { parsePreferences } from '../prefer.js'
import { createRandom, type Random } from '../../util/random.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The id of the injected fault that shaped this request's answer, 'prefer', or null. */
    injectedFault: string | null
  }
}

export interface FaultControlOptions {
  /** Added to every API answer that no fault or Prefer header delays, a refused token's 401 too. */
  latency?: DelayRange
  /** Honour `Prefer: code=…` and `Prefer: delay=…` on a request. */
  allowPrefer?: boolean
  /** Seed of the delay ranges' random choices; reset() starts the sequence again. */
  seed?: number
  /** Where a dropped request is recorded, since it never completes. */
  recorder?: RequestRecorder
  /** How a delay is waited for: setTimeout, unless a test brings its own clock. */
  schedule?: (resume: () => void, ms: number) => void
}

/** What one request gets: a delay, then an answer other than the usual one, if any. */
interface Plan {
  delay?: DelayRange
  answer?: Answer
}

/**
 * Injected faults, --latency and Prefer handling for the device API. Its hook runs after the bearer check:
 * when nothing is on, it costs one boolean test per request.
 */
export class FaultControl {
  readonly hook: onRequestHookHandler
  readonly #latency: DelayRange | undefined
  readonly #allowPrefer: boolean
  readonly #seed: number
  readonly #recorder: RequestRecorder | undefined
  readonly #schedule: (resume: () => void, ms: number) => void
  #random: Random
  /** Oldest first; the newest matching fault wins, as a later override should. */
  #faults: Fault[] = []
  #nextId = 1
  #active: boolean

  constructor ({ latency, allowPrefer = false, seed = 1, recorder, schedule = waitWithTimer }: FaultControlOptions = {}) {
    this.#latency = latency
    this.#allowPrefer = allowPrefer
    this.#seed = seed
    this.#recorder = recorder
    this.#schedule = schedule
    this.#random = createRandom(seed)
    this.#active = this.#isActive()
    const control = this
    this.hook = function applyFaults (request, reply, done) {
      if (!control.#active) {
        done()
        return
      }
      control.#apply(request, reply, done)
    }
  }

  /** Whether any fault, latency or Prefer handling may change an answer: when not, no request needs the hook. */
  get active (): boolean {
    return this.#active
  }

  /**
   * Answers after the --latency wait, given to answer in milliseconds: for the answers of the device API no
   * fault takes (a refused token, a malformed URL, a missing Host), as every answer there waits, so a
   * frontend sees its sign-in and error states slowly too. Faults and Prefer take accepted requests only.
   */
  afterLatency (log: FastifyBaseLogger, answer: (waitedMs: number) => void): void {
    const wait = this.#latency === undefined ? 0 : pickDelay(this.#random, this.#latency)
    if (wait === 0) {
      answer(0)
      return
    }
    log.debug({ delayMs: wait, fault: null }, 'answer delayed')
    this.#schedule(() => answer(wait), wait)
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
    this.#random = createRandom(this.#seed)
  }

  #isActive (): boolean {
    return this.#faults.length > 0 || this.#latency !== undefined || this.#allowPrefer
  }

  #apply (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const header = this.#allowPrefer ? request.headers.prefer : undefined
    const preferences = header === undefined ? undefined : parsePreferences(String(header))
    if (typeof preferences === 'string') {
      done(apiErrors.invalidPrefer(preferences))
      return
    }
    let plan: Plan
    if (preferences !== undefined) {
      reply.header('preference-applied', preferences.applied)
      request.injectedFault = 'prefer'
      const status = preferences.code === undefined || preferences.code === 200 ? undefined : preferences.code
      plan = { delay: preferences.delay ?? this.#latency, answer: status === undefined ? undefined : { status } }
    } else {
      const fault = this.#consumeMatch(request)
      if (fault !== undefined) request.injectedFault = fault.id
      plan = fault === undefined ? { delay: this.#latency } : { delay: delayRangeOf(fault) ?? this.#latency, answer: fault }
    }
    const wait = plan.delay === undefined ? 0 : pickDelay(this.#random, plan.delay)
    if (wait === 0) {
      carryOut(plan.answer, request, reply, done, this.#recorder)
      return
    }
    request.log.debug({ delayMs: wait, fault: request.injectedFault }, 'answer delayed')
    this.#schedule(() => carryOut(plan.answer, request, reply, done, this.#recorder), wait)
  }

  #consumeMatch (request: FastifyRequest): Fault | undefined {
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

// Not unref'd: a server closing gracefully waits for a delayed request, which then completes. The global timer:
// control/ is shared with mock-nvr/msw, which runs in a page, and a page's timer does what a delay needs.
function waitWithTimer (resume: () => void, ms: number): void {
  // eslint-disable-next-line no-restricted-globals -- shared with the browser bundle, which has no node:timers
  setTimeout(resume, ms)
}
