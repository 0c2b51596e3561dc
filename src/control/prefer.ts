import { parseDelay, type DelayRange } from '../util/delay.js'

/** What a request's Prefer header asks for, in Prism's words: `code=503`, `delay=800` or both. */
export interface Preferences {
  /** The status to answer with; 200 means a normal answer. */
  code?: number
  delay?: DelayRange
  /** The preferences honoured, for the Preference-Applied header (RFC 7240 §3). */
  applied: string
}

/**
 * Reads the preferences mock-nvr understands from a Prefer header (RFC 7240: comma-separated
 * `name=value` tokens, values optionally quoted, parameters after `;`). Unknown preferences are
 * ignored, as the RFC asks; a known one with a bad value is returned as the problem, in a sentence.
 */
export function parsePreferences (header: string): Preferences | string | undefined {
  let code: number | undefined
  let delay: DelayRange | undefined
  const applied: string[] = []
  for (const token of header.split(',')) {
    const [name = '', ...rest] = (token.split(';')[0] as string).split('=')
    const key = name.trim().toLowerCase()
    if (key !== 'code' && key !== 'delay') continue
    const value = rest.join('=').trim().replace(/^"(.*)"$/, '$1')
    if (key === 'code') {
      if (!/^\d{3}$/.test(value) || !(value === '200' || (value >= '400' && value <= '599'))) {
        return `the Prefer header's code must be 200 or a status from 400 to 599, not '${value}'`
      }
      code = Number(value)
    } else {
      const range = parseDelay(value)
      if (typeof range === 'string') return `the Prefer header's delay ${range}`
      delay = range
    }
    applied.push(`${key}=${value}`)
  }
  if (code === undefined && delay === undefined) return undefined
  return { ...(code === undefined ? {} : { code }), ...(delay === undefined ? {} : { delay }), applied: applied.join(', ') }
}
