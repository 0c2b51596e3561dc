import { DEMO_FIXTURES } from '../src/msw/demo-fixtures.js'
import type { CountingLine, CountingLineListEnvelope } from '../src/types.js'

/**
 * How a hand-written stand-in drifts from the device, as the recipes' negative runs break the contract:
 * 'no-envelope' answers the bare list, 'no-refusals' answers every request, faults and bearer token aside.
 */
export type Drift = 'no-envelope' | 'no-refusals'

export function driftOf (value: string | undefined): Drift {
  if (value === 'no-envelope' || value === 'no-refusals') return value
  throw new Error(`DRIFT must be no-envelope or no-refusals, not ${String(value)}`)
}

const LINES = DEMO_FIXTURES.flatMap(({ data }) => (data as { counting_lines: CountingLine[] }).counting_lines)

/** The body a drifted stand-in answers a camera's list with. */
export function driftedList (drift: Drift, cameraId: string): CountingLine[] | CountingLineListEnvelope {
  const lines = LINES.filter(line => line.camera_id === cameraId)
  return drift === 'no-envelope' ? lines : { result: { success: true, httpCode: 200 }, content: lines }
}
