import type { FastifyBaseLogger } from 'fastify'
import { API_PREFIX } from '../contract/paths.js'
import type { CountingLine } from '../contract/schemas.js'
import { parseBody, unruledDepartures } from '../target-client/answer-shape.js'
import { checkListAnswer, checkRetrievedLine, type Violation } from '../target-client/contract-check.js'
import { TargetClient, NoAnswerError, type TargetAnswer } from '../target-client/target-client.js'
import { checkCa, checkTimer, DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUT_MS, describeTarget, parseTarget } from '../target-client/target-connection.js'
import { redactStrings, tokenRedactor } from '../target-client/token-redaction.js'
import { ProxyRecording } from './proxy-recording.js'

/** Where the proxy forwards /nvr/v1 to, and what it keeps. */
export interface ProxyOptions {
  /** The target's base URL, without /nvr/v1. */
  target: string
  /** Milliseconds one forwarded request may take (default 10000); then 504. */
  timeout?: number
  /** PEM certificate(s) to trust for an https:// target. */
  ca?: string
  /** Skip the certificate check of an https:// target. */
  insecure?: boolean
  /** Keep the valid lists and lines that pass, and write them to this fixture file on stop. */
  record?: string
}

const LIST_OR_LINE = new RegExp(`^${API_PREFIX}/cameras/([^/]+)/counting_lines(?:/([^/]+))?/?$`)

/**
 * Forwards requests to the target with the client's own Authorization, and checks each answer to a read
 * against the contract as it passes. Violations are logged once per request path and counted.
 */
export class TargetProxy {
  readonly target: string
  readonly recording: ProxyRecording | undefined
  readonly #client: TargetClient
  readonly #loggedPaths = new Set<string>()
  #violations = 0

  constructor ({ target, timeout = DEFAULT_TIMEOUT_MS, ca, insecure = false, record }: ProxyOptions) {
    const base = parseTarget(target)
    checkTimer('timeout', timeout)
    if (ca !== undefined) checkCa(ca, base)
    this.target = describeTarget(base)
    this.#client = new TargetClient({ base, token: '', timeoutMs: timeout, insecure, maxBodyBytes: DEFAULT_MAX_BODY_BYTES, ...(ca === undefined ? {} : { ca }) })
    this.recording = record === undefined ? undefined : new ProxyRecording(record)
  }

  /** Contract violations seen since the start. */
  get violationCount (): number {
    return this.#violations
  }

  /** Sends the request on; a failure rejects with NoAnswerError. */
  forward (method: string, url: string, headers: Record<string, string>, body: Buffer | undefined): Promise<TargetAnswer> {
    return this.#client.send({ method, path: url, headers, ...(body === undefined || body.length === 0 ? {} : { body }) })
  }

  /** Ends the connections to the target. */
  close (): Promise<void> {
    return this.#client.close()
  }

  /** Checks an answer to a read (a 200 to GET of a list or a line), logs what is new, keeps what is valid; returns the count. */
  inspect (method: string, url: string, answer: TargetAnswer, authorization: string | undefined, log: FastifyBaseLogger): number {
    if (method !== 'GET' || answer.status !== 200) return 0
    const pathname = url.split('?')[0] as string
    const read = parseRead(pathname)
    if (read === undefined) return 0
    // The client's credentials, whatever the scheme: the target may echo them back.
    const redact = tokenRedactor(authorization?.slice(authorization.indexOf(' ') + 1).trim() ?? '')
    const context = { camera: read.camera, request: `GET ${pathname}`, redact }
    let violations: Violation[]
    if (read.line === undefined) {
      const checked = checkListAnswer(answer, context)
      violations = checked.violations
      if (violations.length === 0) this.recording?.keepList(read.camera, checked.validLines)
    } else {
      violations = checkRetrievedLine(answer, { ...context, line: read.line })
      if (violations.length === 0) this.recording?.keepLine((parseBody(answer.body) as { content: CountingLine }).content)
    }
    this.#violations += violations.length
    const departures = violations.length === 0 ? unruledDepartures(answer.headers['content-type'], answer.body, redact) : []
    if ((violations.length > 0 || departures.length > 0) && !this.#loggedPaths.has(pathname)) {
      this.#loggedPaths.add(pathname)
      for (const { camera, line, path, problem } of redactStrings(violations, redact)) log.warn({ camera, line, path, problem }, `the target broke the contract at ${redact(pathname)}`)
      if (departures.length > 0) log.warn({ camera: read.camera, departures }, `the target's answer departs from mock-nvr's where the seed does not rule at ${redact(pathname)}`)
    }
    return violations.length
  }
}

/** The camera and line of a read's path, percent-decoded once, or undefined when it is no read or cannot be decoded. */
function parseRead (pathname: string): { camera: string, line?: string } | undefined {
  const match = LIST_OR_LINE.exec(pathname)
  if (match === null) return undefined
  try {
    const camera = decodeURIComponent(match[1] as string)
    return match[2] === undefined ? { camera } : { camera, line: decodeURIComponent(match[2]) }
  } catch {
    return undefined
  }
}

export { NoAnswerError }
