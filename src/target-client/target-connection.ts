import { X509Certificate } from 'node:crypto'
import { API_PREFIX } from '../contract/paths.js'
import { MAX_TIMER_MS } from '../util/delay.js'
import { isSendableToken, TOKEN_RULE } from '../util/token-characters.js'
import { TargetLinkError } from '../errors/errors.js'

/** How to reach the target, checked: its base URL, its token, and how long to wait. */
export interface TargetConnection {
  /** The base URL, without /nvr/v1 and without a trailing slash. */
  base: URL
  token: string
  /** Milliseconds one request may take, answer included. */
  timeoutMs: number
  /** PEM certificates to trust for an HTTPS target, instead of the system's. */
  ca?: string
  /** Skip the certificate check of an HTTPS target. */
  insecure: boolean
  /** The largest answer read, in bytes. */
  maxBodyBytes: number
  /** Aborts every request in flight and every one after it: the run took too long, or the user stopped it. */
  signal?: AbortSignal
}

/** What verifyTarget and recordTarget take. */
export interface TargetLinkOptions {
  /** The target's base URL, e.g. https://nvr.local:8443, without /nvr/v1. */
  target: string
  /** The bearer token the target accepts. It is sent only there and never written anywhere. */
  token: string
  /** The cameras to read: the API has no route that lists them. */
  cameras: string[]
  /** Milliseconds one request may take (default 10000). */
  timeout?: number
  /** Milliseconds the whole run may take (default: no limit beyond the per-request one). */
  runTimeout?: number
  /** PEM certificate(s) to trust for an HTTPS target, e.g. the target's self-signed one. */
  ca?: string
  /** Skip the certificate check of an HTTPS target. */
  insecure?: boolean
  /** The largest answer read, in bytes (default 16 MiB). */
  maxBodyBytes?: number
  /** Stops the run: every request in flight is aborted. */
  signal?: AbortSignal
}

export const DEFAULT_TIMEOUT_MS = 10_000
/** Answers larger than this are refused unread: an NVR's list of lines is far smaller. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024

/** Checks the options (never echoing the token) and turns them into a connection. */
export function connectionFrom (options: TargetLinkOptions): TargetConnection {
  const base = parseTarget(options.target)
  if (!isSendableToken(options.token)) throw new TargetLinkError(`the token ${TOKEN_RULE}`, 'token')
  if (!Array.isArray(options.cameras) || options.cameras.length === 0) throw new TargetLinkError('name at least one camera to read', 'cameras')
  const empty = options.cameras.findIndex(camera => typeof camera !== 'string' || camera === '')
  if (empty !== -1) throw new TargetLinkError('a camera id must not be empty', 'cameras')
  const timeoutMs = options.timeout ?? DEFAULT_TIMEOUT_MS
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  checkTimer('timeout', timeoutMs)
  checkPositive('maxBodyBytes', maxBodyBytes)
  if (options.runTimeout !== undefined) checkTimer('runTimeout', options.runTimeout)
  if (options.ca !== undefined) checkCa(options.ca, base)
  return {
    base,
    token: options.token,
    timeoutMs,
    ...(options.ca === undefined ? {} : { ca: options.ca }),
    insecure: options.insecure === true,
    maxBodyBytes,
    ...(options.signal === undefined ? {} : { signal: options.signal })
  }
}

/** A CA to trust must hold a certificate (a key or a typo'd file would silently trust nothing), for an https:// target. */
export function checkCa (ca: string, base: URL): void {
  if (!holdsCertificate(ca)) throw new TargetLinkError(`the CA must hold a PEM certificate (${PEM_CERTIFICATE})`, 'ca')
  if (base.protocol !== 'https:') throw new TargetLinkError('a CA certificate is only of use with an https:// target', 'ca')
}

const PEM_CERTIFICATE = '-----BEGIN CERTIFICATE-----'

/** Whether PEM text holds at least one certificate. */
export function holdsCertificate (pem: string): boolean {
  try {
    return new X509Certificate(pem).raw.length > 0
  } catch {
    return false
  }
}

/** A count of milliseconds or bytes: a whole number of at least 1. */
export function checkPositive (name: string, value: unknown): void {
  if (!Number.isSafeInteger(value) || (value as number) <= 0) throw new TargetLinkError(`${name} must be a whole number of at least 1`, name)
}

/** A time-out in milliseconds: a whole number from 1 to what a timer can wait. */
export function checkTimer (name: string, value: unknown): void {
  checkPositive(name, value)
  if ((value as number) > MAX_TIMER_MS) throw new TargetLinkError(`${name} must be at most ${MAX_TIMER_MS} milliseconds`, name)
}

/** The target URL, checked: http or https, no credentials, query or fragment, and not the API path itself. */
export function parseTarget (target: string): URL {
  let url: URL
  try {
    url = new URL(target)
  } catch {
    throw new TargetLinkError('the target must be a URL like https://nvr.local:8443', 'target')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TargetLinkError(`the target must be an http:// or https:// URL, not ${url.protocol}`, 'target')
  if (url.username !== '' || url.password !== '') throw new TargetLinkError('the target must not hold a user name or password; the token is given on its own', 'target')
  if (url.search !== '' || url.hash !== '') throw new TargetLinkError('the target must not hold a query string or fragment', 'target')
  const path = url.pathname.replace(/\/+$/, '')
  if (path.endsWith(API_PREFIX)) throw new TargetLinkError(`give the target's base URL, without ${API_PREFIX}`, 'target')
  url.pathname = path
  return url
}

/** The target as shown in reports: scheme, host, port and any base path. */
export function describeTarget (base: URL): string {
  return `${base.origin}${base.pathname === '/' ? '' : base.pathname}`
}

/** The path of a camera's list, each id percent-encoded as one path segment. */
export function listPath (camera: string): string {
  return `${API_PREFIX}/cameras/${encodeURIComponent(camera)}/counting_lines`
}

export function linePath (camera: string, line: string): string {
  return `${listPath(camera)}/${encodeURIComponent(line)}`
}
