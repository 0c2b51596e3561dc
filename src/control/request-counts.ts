import { ADMIN_PREFIX } from '../contract/paths.js'
import type { RecordedRequest } from './journal.js'

/** The upper bounds of the answer-time histogram, in seconds: a mock answers well under a millisecond unless told to wait. */
export const LATENCY_BUCKETS: readonly number[] = [0.001, 0.005, 0.025, 0.1, 0.5, 2.5, 10]

/** What a request asked: one of the two operations, or another path of the device (/healthz, the document, an unknown path). */
export type OperationLabel = 'list' | 'retrieve' | 'other'
export const OPERATION_LABELS: readonly OperationLabel[] = ['list', 'retrieve', 'other']

/** The status of a request whose connection was dropped on purpose, which has none. */
export const DROPPED = 0

/**
 * A device's requests as numbers, since it started: how many by operation and status, and how long they took.
 * Never reset with the device, as a counter a monitoring system reads must only grow. Admin calls are not counted.
 * A request costs a few array writes.
 */
export class RequestCounts {
  /** By status (0: dropped), the count of each operation in OPERATION_LABELS order. */
  readonly byStatus = new Map<number, Float64Array>()
  /** Answers per histogram bucket, not cumulative; the last is above every bound. */
  readonly buckets = new Float64Array(LATENCY_BUCKETS.length + 1)
  seconds = 0
  total = 0

  count ({ url, params }: RecordedRequest, status: number, durationMs: number): void {
    if (url.startsWith(ADMIN_PREFIX)) return
    let counts = this.byStatus.get(status)
    if (counts === undefined) {
      counts = new Float64Array(OPERATION_LABELS.length)
      this.byStatus.set(status, counts)
    }
    // A request refused before routing has no parameters at all.
    const { id, line_id: lineId } = (params ?? {}) as { id?: string, line_id?: string }
    const operation = lineId !== undefined ? 1 : id !== undefined ? 0 : 2
    counts[operation] = (counts[operation] as number) + 1
    const seconds = durationMs / 1000
    let bucket = 0
    while (bucket < LATENCY_BUCKETS.length && seconds > (LATENCY_BUCKETS[bucket] as number)) bucket++
    this.buckets[bucket] = (this.buckets[bucket] as number) + 1
    this.seconds += seconds
    this.total++
  }
}
