import type { OperationRow } from '../contract/paths.js'
import type { ApiError } from '../wire/errors.js'

/** A request below /nvr/v1 as the pipeline reads it, whoever received it: Fastify, the fast path or MSW. */
export interface ApiRequest {
  method: string
  authorization: string | undefined
  /** The Prefer header, read only where Prefer handling is on. */
  prefer: string | undefined
  /** The operation at the request's path, whatever its method; undefined when no operation is there. */
  operation: OperationRow | undefined
  /** The path's parameters, decoded as the router decodes them. */
  params: Readonly<Record<string, string>>
}

/** The prepared answers of one camera: the list's bytes, and each line's. */
export interface PreparedCamera {
  readonly listBody: string | Uint8Array
  lineBody: (lineId: string) => string | Uint8Array | undefined
}

/** What the pipeline reads of a device's data: each camera's prepared answers. */
export interface ServedCameras {
  camera: (id: string) => PreparedCamera | undefined
}

/** What happens to the request in the end. */
export type Outcome =
  | { readonly kind: 'send', readonly body: string | Uint8Array }
  | { readonly kind: 'refuse', readonly error: ApiError }
  | { readonly kind: 'drop' }
  /** A proxy's: the target's answer, whatever it is. */
  | { readonly kind: 'forward' }

/**
 * How a device answers one request, decided before anything is sent: wait this long, then send these bytes,
 * refuse with this error, or drop the connection; a malformed fault cuts the body in half. Three adapters carry
 * it out: the Fastify hooks (device-api/), the fast path (app/fast-path.ts) and the MSW handlers (msw/answer.ts).
 */
export interface Plan {
  /** Milliseconds to wait first: --latency, a fault's delay or Prefer's. */
  readonly waitMs: number
  /** The id of the fault that shaped the answer, 'prefer', or null. */
  readonly fault: string | null
  /** Headers the answer carries beside its own (Preference-Applied), as name, value… */
  readonly headers: readonly string[]
  /** Whether the body is cut in half, as a connection cut mid-answer leaves it. */
  readonly cut: boolean
  readonly outcome: Outcome
}
