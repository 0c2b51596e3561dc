import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock, ClockTimer } from '../util/clock.js'
import { apiErrors, type ApiError } from '../wire/errors.js'
import type { RequestGate } from '../wire/request-gate.js'
import type { DeviceEvents } from '../control/device-events.js'
import { durationOf, latencyAt, phaseOf, type HealthSpec, type HealthStateName, type StatePhase } from './health-states.js'
import { parseHealthSpec, type HealthPlan } from './health-spec.js'
import { segmentAt, timeline, type Segment } from './schedule.js'

/** The device's port, as health steers it. */
export interface HealthListener {
  /** The port it listens on, or listened on last. */
  readonly port: number
  /** Stops accepting connections; answers under way finish, idle connections close. Resolves once the port is free. */
  stop: () => Promise<void>
  /** Listens on the same port again; rejects when it cannot (the port was taken meanwhile). */
  resume: () => Promise<void>
  /** Sets the gate every request of the port meets first; null lets every request through at no cost. */
  setGate: (gate: RequestGate | null) => void
  /** Answers a request with this refusal as the device answers (its CORS headers, the envelope, the journal). */
  refuse: (request: IncomingMessage, response: ServerResponse, error: ApiError) => void
}

/** Why the state changed. */
export type HealthCause = 'start' | 'schedule' | 'command' | 'reset'

/** A device's health now, and what its schedule does next. */
export type HealthReport = HealthSpec & {
  /** The phase of a state that has several (rebooting: down, then starting). */
  phase?: string
  since: string
  /** When the state ends by itself, if it does. */
  until?: string
  /** Whether the port takes connections: false while offline, rebooting down, or when the port was taken meanwhile. */
  listening: boolean
  /** The port that could not be listened on again, when it was taken while the device was down: the device is offline. */
  port?: number
  /** Why the port could not be listened on again. */
  reason?: string
  /** The changes ahead, by the schedule (after a command's `for`); none after a command without `for`. */
  next: Array<HealthSpec & { at: string }>
}

export interface DeviceHealthOptions {
  clock: Clock
  /** The schedule's health; online for good without one. */
  plan?: HealthPlan
  log: FastifyBaseLogger
  events: DeviceEvents
}

interface Current extends Segment {
  phase: StatePhase
  cause: HealthCause
}

const TIMELINE_LENGTH = 10

/**
 * One device's health over time: the schedule's state, or a command's for as long as it lasts, acted on the
 * port (closed, holding, answering 503 or slowly) and on each request through the device's gate, which is set
 * only while a state needs it. One clock timer at a time waits for the next change, so a device costs the same
 * whether it flaps every second or never.
 */
export class DeviceHealth {
  readonly #clock: Clock
  #listener: HealthListener | undefined
  readonly #plan: HealthPlan | undefined
  readonly #log: FastifyBaseLogger
  readonly #events: DeviceEvents
  #start: number
  #command: Segment | undefined
  #current: Current
  #timer: ClockTimer | undefined
  #listening = true
  /** Why the port could not come back, while it cannot: the state is then offline, whatever was asked. */
  #portTaken: { port: number, reason: string } | undefined
  #stopped = false
  #work: Promise<void> = Promise.resolve()
  // Made when a state first holds or slows a request: most devices of a fleet never need them.
  #held: Set<ServerResponse> | undefined
  #delayed: Map<ClockTimer, () => void> | undefined

  constructor ({ clock, plan, log, events }: DeviceHealthOptions) {
    this.#clock = clock
    this.#plan = plan
    this.#log = log
    this.#events = events
    this.#start = clock.now()
    this.#current = { spec: { state: 'online' }, start: this.#start, phase: { mode: 'listening' }, cause: 'start' }
  }

  /** Starts the schedule now, on the device's port, which listens. */
  begin (listener: HealthListener): void {
    this.#listener = listener
    this.#start = this.#clock.now()
    this.#update('start')
  }

  /** The state now: offline while its port cannot be taken back, whatever was asked. */
  get state (): HealthStateName {
    return this.#portTaken === undefined ? this.#current.spec.state : 'offline'
  }

  /** Whether the port takes connections now. */
  get listening (): boolean {
    return this.#listening
  }

  /** Resolves once the port has done what the last change asked (closed or listening again). */
  settled (): Promise<void> {
    return this.#work
  }

  /** Puts the device in this state now, for its `for` (or a reboot's own length), then back to the schedule; throws HealthSpecError. */
  set (value: unknown): HealthReport {
    const spec = parseHealthSpec(value)
    const now = this.#clock.now()
    const duration = durationOf(spec)
    this.#command = { spec, start: now, ...(duration === undefined ? {} : { end: now + duration }) }
    this.#update('command')
    return this.report()
  }

  /** Online again (or as the schedule has it at its start), the schedule from its start, no command in force. */
  reset (): void {
    this.#command = undefined
    this.#start = this.#clock.now()
    this.#update('reset')
  }

  report (): HealthReport {
    const { spec, start, end, phase } = this.#current
    const ends = phase.endsAt === undefined ? end : start + phase.endsAt
    const upcoming = this.#command === undefined
      ? timeline(this.#plan, this.#clock.now() - this.#start, { count: TIMELINE_LENGTH + 1 }).slice(1)
      : this.#command.end === undefined ? [] : timeline(this.#plan, this.#command.end - this.#start, { count: TIMELINE_LENGTH })
    const taken = this.#portTaken
    return {
      ...spec,
      ...(taken === undefined ? {} : { state: 'offline' as const }),
      ...(phase.phase === undefined ? {} : { phase: phase.phase }),
      since: this.#iso(start + (phase.phase === 'starting' ? (spec.down as number) : 0)),
      ...(ends === undefined ? {} : { until: this.#iso(ends) }),
      listening: this.#listening,
      ...taken,
      next: upcoming.map(({ at, ...step }) => ({ ...step, at: this.#iso(this.#start + at) }))
    }
  }

  /** Stops every timer and lets go of every request waiting on the gate; the port stays as it is. */
  async stop (): Promise<void> {
    this.#stopped = true
    if (this.#timer !== undefined) this.#clock.clearTimer(this.#timer)
    this.#releaseHeld()
    for (const [timer, resume] of this.#delayed ?? []) {
      this.#clock.clearTimer(timer)
      resume()
    }
    this.#delayed = undefined
    await this.#work
  }

  // Set on the port while the state is not plain listening; a closed port meets no request. Made when first
  // needed: most devices of a fleet stay online.
  #gateFunction: RequestGate | undefined
  get #gate (): RequestGate {
    this.#gateFunction ??= (request, response, proceed) => this.#pass(request, response, proceed)
    return this.#gateFunction
  }

  #pass (request: IncomingMessage, response: ServerResponse, proceed: () => void): boolean {
    const { phase, start, spec } = this.#current
    if (phase.mode === 'holding') {
      this.#hold(response)
      return true
    }
    // A CORS preflight is answered at once.
    if (request.method === 'OPTIONS') return false
    const now = this.#clock.now()
    if (phase.mode === 'starting') {
      const retryAfter = Math.max(1, Math.ceil((start + (phase.endsAt as number) - now) / 1000))
      ;(this.#listener as HealthListener).refuse(request, response, apiErrors.deviceStarting(retryAfter))
      return true
    }
    const latency = latencyAt(spec, now - start)
    if (latency === 0) return false
    const timer = this.#clock.setTimer(() => {
      // Made below, before the timer can fire; stop() clears the timer before it lets go of the map.
      ;(this.#delayed as Map<ClockTimer, () => void>).delete(timer)
      proceed()
    }, latency)
    ;(this.#delayed ??= new Map()).set(timer, proceed)
    return true
  }

  #hold (response: ServerResponse): void {
    if (this.#stopped) {
      // The device is closing: nothing may hold it open.
      response.destroy()
      return
    }
    const held = this.#held ??= new Set()
    held.add(response)
    response.once('close', () => held.delete(response))
  }

  #update (cause: HealthCause): void {
    if (this.#stopped) return
    if (this.#timer !== undefined) this.#clock.clearTimer(this.#timer)
    this.#timer = undefined
    const now = this.#clock.now()
    if (this.#command?.end !== undefined && now >= this.#command.end) this.#command = undefined
    const segment = this.#command ?? this.#scheduled(now)
    const phase = phaseOf(segment.spec, now - segment.start)
    const previous = this.#current
    this.#current = { ...segment, phase, cause: this.#command === undefined ? cause : 'command' }
    // The timer wakes only at a change; a command or a reset is one even to the same state.
    if (cause !== 'start') this.#recordChange(this.#current)
    if (previous.phase.mode === 'holding' && phase.mode !== 'holding') this.#releaseHeld()
    ;(this.#listener as HealthListener).setGate(phase.mode === 'listening' ? null : this.#gate)
    this.#steerPort()
    const phaseEnds = phase.endsAt === undefined ? undefined : segment.start + phase.endsAt
    const wake = Math.min(phaseEnds ?? Infinity, segment.end ?? Infinity)
    if (wake !== Infinity) this.#timer = this.#clock.setTimer(() => this.#update('schedule'), wake - now)
  }

  #scheduled (now: number): Segment {
    const { spec, start, end } = segmentAt(this.#plan, now - this.#start)
    return { spec, start: this.#start + start, ...(end === undefined ? {} : { end: this.#start + end }) }
  }

  #recordChange ({ spec, phase, cause }: Current): void {
    const detail = { state: spec.state, ...(phase.phase === undefined ? {} : { phase: phase.phase }), cause }
    this.#events.record({ kind: 'health', time: this.#iso(this.#clock.now()), ...detail })
    this.#log.info(detail, `health: ${spec.state}${phase.phase === undefined ? '' : ` (${phase.phase})`}`)
  }

  // Queued, so a close and a listen never overlap; each step does what the state asks when it runs.
  #steerPort (): void {
    this.#work = this.#work.then(async () => {
      const wanted = this.#current.phase.mode !== 'closed'
      const listener = this.#listener as HealthListener
      if (!wanted) this.#portTaken = undefined
      if (this.#stopped || wanted === this.#listening) return
      if (!wanted) {
        await listener.stop()
        this.#listening = false
        return
      }
      try {
        await listener.resume()
        this.#listening = true
        this.#portTaken = undefined
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        const port = listener.port
        const reason = code === 'EADDRINUSE' ? `port ${port} is in use by another program` : `port ${port} cannot be listened on: ${code ?? (error as Error).message}`
        this.#portTaken = { port, reason }
        this.#events.record({ kind: 'health', time: this.#iso(this.#clock.now()), state: 'offline', cause: 'port-taken', port })
        this.#log.warn({ port, reason }, `port ${port} was taken while the device was offline: it stays offline until its next change`)
      }
    })
  }

  #releaseHeld (): void {
    const held = this.#held
    if (held === undefined) return
    for (const response of held) response.destroy()
    held.clear()
  }

  #iso (time: number): string {
    return new Date(time).toISOString()
  }
}
