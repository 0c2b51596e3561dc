import { NOT_FOR_PROXY } from './settings.js'

/** The first option given that a proxy refuses, in the library's words; undefined when there is none. */
export function proxyRefusal (input: Readonly<Record<string, unknown>>): string | undefined {
  for (const [option, reason] of NOT_FOR_PROXY) {
    const value = input[option]
    if (value !== undefined && value !== false && !(Array.isArray(value) && value.length === 0)) return `option ${option} does not apply to a proxy: ${reason}`
  }
  return undefined
}
