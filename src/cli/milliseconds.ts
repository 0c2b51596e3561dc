import { MAX_TIMER_MS } from '../util/delay.js'
import { UsageError } from '../errors/errors.js'

/** The value of a flag such as `--timeout MS`: a whole number of milliseconds a timer can wait, at least 1. */
export function parseMilliseconds (flag: string, text: string): number {
  const milliseconds = Number(text)
  if (!/^\d+$/.test(text) || milliseconds === 0) throw new UsageError(`--${flag} must be a whole number of milliseconds, at least 1, not '${text}'`)
  if (milliseconds > MAX_TIMER_MS) throw new UsageError(`--${flag} must be at most ${MAX_TIMER_MS} milliseconds (almost 25 days), not '${text}'`)
  return milliseconds
}
