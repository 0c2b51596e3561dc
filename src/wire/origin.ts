/** What --cors-origin and corsOrigins take besides origins: any origin, as when none is given. */
export const ANY_ORIGIN = '*'

// An app's own scheme (chrome-extension://id, capacitor://localhost); URL gives those no origin of their own.
const OTHER_SCHEME_ORIGIN = /^(?!(?:https?|wss?|ftp|file):)[a-z][a-z0-9+.-]*:\/\/[^/?#@\s]+$/
// localhost:5173 or app.example.test: an origin without its scheme, most likely http.
const HOST_AND_PORT = /^[a-z0-9.-]+(:\d+)?$/i

/**
 * Why a value is not an origin as a browser sends it (scheme://host[:port], nothing after it), with the
 * origin it likely means when there is one; undefined when it is one. Such a value would never match.
 */
export function describeNonOrigin (value: string): { problem: string, suggestion?: string } | undefined {
  const special = originOf(value)
  if (special === value || (special === undefined && OTHER_SCHEME_ORIGIN.test(value))) return undefined
  const suggestion = special ?? (HOST_AND_PORT.test(value) && value !== 'null' ? originOf(`http://${value}`) : undefined)
  return {
    problem: 'must be an origin, scheme://host[:port] with nothing after it (like http://localhost:5173)',
    ...(suggestion === undefined ? {} : { suggestion })
  }
}

/** The origin of an http(s)-like URL (lower case, no default port, no path); undefined for any other text. */
export function originOf (text: string): string | undefined {
  const url = parsedUrl(text)
  return url === undefined || url.origin === 'null' ? undefined : url.origin
}

/** The origin of a URL that has nothing after it but a slash, such as a base URL; undefined for any other text. */
export function bareOriginOf (text: string): string | undefined {
  const url = parsedUrl(text)
  return url !== undefined && url.origin !== 'null' && url.href === `${url.origin}/` ? url.origin : undefined
}

function parsedUrl (text: string): URL | undefined {
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}
