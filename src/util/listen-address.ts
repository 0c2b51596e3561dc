/** The hosts that mean "every interface": a server listening there has no address of its own to show. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::'])

export function isWildcardHost (host: string): boolean {
  return WILDCARD_HOSTS.has(host)
}

/**
 * The URL a person or a client on the same machine opens for a server listening on this host and port: loopback
 * for a wildcard host (http://0.0.0.0:8080 opens nowhere in some browsers and on Windows); an IPv6 address in brackets.
 */
export function baseUrl (host: string, port: number, protocol: 'http' | 'https' = 'http'): string {
  const shown = isWildcardHost(host) ? '127.0.0.1' : host
  return `${protocol}://${shown.includes(':') ? `[${shown}]` : shown}:${port}`
}
