import { ApiError } from '../wire/errors.js'
import { lookUp } from './look-up.js'
import type { ApiRequest, Plan, ServedCameras } from './plan.js'
import type { Admitted } from '../contract/bearer.js'
import type { FaultControl } from '../control/faults/fault-control.js'

const NO_HEADERS: readonly string[] = []

/** What the pipeline reads of a device: who it lets in, its faults and its data. */
export interface DeviceState {
  /** Who the device API lets in, or its refusal: the bearer check, then the limits that count a request. */
  admitRequest: (authorization: string | undefined) => Admitted | ApiError
  readonly faultControl: FaultControl
  /** The --latency wait of an answer no fault takes. */
  latencyWait: () => number
  readonly store: ServedCameras
}

/**
 * How the device answers a request below /nvr/v1, in the contract's order: the bearer check (a request no token
 * opens counts against no one), the rate limit, then injected faults, Prefer and latency, then the operation's
 * answer from the data. Its only effects are on the device's own counters: the rate limit's bucket and the
 * `times` a fault has left.
 */
export function decide (device: DeviceState, request: ApiRequest): Plan {
  const { store } = device
  const admission = device.admitRequest(request.authorization)
  if (admission instanceof ApiError) return refusal(device, admission)
  const faults = device.faultControl
  if (!faults.active) return { waitMs: 0, fault: null, headers: NO_HEADERS, cut: false, outcome: lookUp(store, admission, request) }
  const planned = faults.planFor(request)
  const { effect } = planned
  const outcome = effect === 'drop'
    ? { kind: 'drop' as const }
    : typeof effect === 'object' ? { kind: 'refuse' as const, error: effect } : lookUp(store, admission, request)
  return { waitMs: planned.waitMs, fault: planned.fault, headers: planned.headers, cut: effect === 'cut', outcome }
}

/**
 * How a proxy's device answers a request: its faults, Prefer and latency, then the target's answer, which decides
 * who is let in.
 */
export function decideForTarget (device: Pick<DeviceState, 'faultControl'>, request: ApiRequest): Plan {
  const faults = device.faultControl
  if (!faults.active) return FORWARD
  const { waitMs, fault, headers, effect } = faults.planFor(request)
  const outcome = effect === 'drop' ? { kind: 'drop' as const } : typeof effect === 'object' ? { kind: 'refuse' as const, error: effect } : FORWARD.outcome
  return { waitMs, fault, headers, cut: effect === 'cut', outcome }
}

const FORWARD: Plan = { waitMs: 0, fault: null, headers: NO_HEADERS, cut: false, outcome: { kind: 'forward' } }

/**
 * A refusal of the device API that no fault takes (a refused token, the rate limit, a malformed URL, a missing
 * Host): it waits for --latency, as every answer of the device does, so a frontend sees its error states slowly too.
 */
export function refusal (device: Pick<DeviceState, 'latencyWait'>, error: ApiError): Plan {
  return { waitMs: device.latencyWait(), fault: null, headers: NO_HEADERS, cut: false, outcome: { kind: 'refuse', error } }
}

/** The first half of an answer's bytes: what a client's parser gets from a connection cut mid-answer. */
export function cutInHalf (body: string | Uint8Array): Uint8Array {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body
  return bytes.subarray(0, Math.floor(bytes.length / 2))
}
