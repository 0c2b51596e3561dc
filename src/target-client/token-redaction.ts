import { pointerSegment } from './contract-check.js'

const MARK = '[token]'

/**
 * Replaces a token in text in every form it can take in a report: as sent, escaped in a JSON string,
 * percent-encoded in a path, and escaped in a JSON Pointer. A target that echoes the token back (in a
 * redirect, an error page, a field) must not get it printed.
 */
export function tokenRedactor (token: string): (text: string) => string {
  if (token === '') return text => text
  const forms = [...new Set([token, JSON.stringify(token).slice(1, -1), encodeURIComponent(token), pointerSegment(token)])]
    // The longest first: a form inside another is replaced as part of the longer one.
    .sort((a, b) => b.length - a.length)
  return text => forms.reduce((redacted, form) => redacted.replaceAll(form, MARK), text)
}

/** The same value with the redactor applied to every string in it (not to the keys), however deep. */
export function redactStrings<T> (value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T
  if (Array.isArray(value)) return value.map(item => redactStrings(item, redact)) as T
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactStrings(item, redact)])) as T
  }
  return value
}
