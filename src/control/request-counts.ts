import { ADMIN_PREFIX } from '../contract/paths.js'
import type { RecordedRequest } from './journal.js'

/** The upper bounds of the answer-time histogram, in seconds: a mock answers well under a millisecond unless told to wait. */
export const LATENCY_BUCKETS: readonly number[] = [0.001, 0.005, 0.025, 0.1, 0.5, 2.5, 10]

/** What a request asked: one of the two operations, or another path of the device (/healthz, the document, an unknown path). */
export type OperationLabel = 'list' | 'retrieve' | 'other'
export const OPERATION_LABELS: readonly OperationLabel[] = ['list', 'retrieve', 'other']

/** The status of a request whose connection was dropped on purpose, which has none. */
export const DROPPED = 0

const NO_COUNTS: ReadonlyMap<number, Float64Array> = new Map()
// Read only: a device with no answer yet shows these zeros, and counts into buckets of its own.
const NO_BUCKETS = new Float64Array(LATENCY_BUCKETS.length + 1)

/**
 * A device's requests as numbers, since it started: how many by operation and status, and how long they took.
 * Never reset with the device, as a counter a monitoring system reads must only grow. Admin calls are not counted.
 * A request costs a few array writes.
 */
export class RequestCounts {
  // Made with the first request counted: a device nobody calls holds neither.
  #byStatus: Map<number, Float64Array> | undefined
  #buckets: Float64Array | undefined
  seconds = 0
  total = 0

  /** By status (0: dropped), the count of each operation in OPERATION_LABELS order. */
  get byStatus (): ReadonlyMap<number, Float64Array> {
    return this.#byStatus ?? NO_COUNTS
  }

  /** Answers per histogram bucket, not cumulative; the last is above every bound. */
  get buckets (): Float64Array {
    return this.#buckets ?? NO_BUCKETS
  }

  count ({ url, params }: RecordedRequest, status: number, durationMs: number): void {
    if (url.startsWith(ADMIN_PREFIX)) return
    const byStatus = this.#byStatus ??= new Map()
    let counts = byStatus.get(status)
    if (counts === undefined) {
      counts = new Float64Array(OPERATION_LABELS.length)
      byStatus.set(status, counts)
    }
    // A request refused before routing has no parameters at all.
    const { id, line_id: lineId } = (params ?? {}) as { id?: string, line_id?: string }
    const operation = lineId !== undefined ? 1 : id !== undefined ? 0 : 2
    counts[operation] = (counts[operation] as number) + 1
    const seconds = durationMs / 1000
    let bucket = 0
    while (bucket < LATENCY_BUCKETS.length && seconds > (LATENCY_BUCKETS[bucket] as number)) bucket++
    const buckets = this.#buckets ??= new Float64Array(LATENCY_BUCKETS.length + 1)
    buckets[bucket] = (buckets[bucket] as number) + 1
    this.seconds += seconds
    this.total++
  }
}
