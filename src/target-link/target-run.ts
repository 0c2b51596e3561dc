import { clearTimeout, setTimeout } from 'node:timers'
import { TargetClient, NoAnswerError, unreachableError, type TargetAnswer, type TargetRequest } from '../target-client/target-client.js'
import { connectionFrom, describeTarget, type TargetConnection, type TargetLinkOptions } from '../target-client/target-connection.js'
import { redactStrings, tokenRedactor } from '../target-client/token-redaction.js'
import { TargetLinkError } from '../errors/errors.js'

/** One run against the target: its connection, a client, the time limit of the run, and token redaction. */
export class TargetRun {
  readonly connection: TargetConnection
  readonly client: TargetClient
  /** The target as reports show it. */
  readonly target: string
  readonly #controller = new AbortController()
  readonly #timer: NodeJS.Timeout | undefined
  readonly #runTimeout: number | undefined
  readonly #outerSignal: AbortSignal | undefined
  readonly #stopFromOutside = (): void => this.#controller.abort()

  constructor (options: TargetLinkOptions) {
    const checked = connectionFrom(options)
    this.#runTimeout = options.runTimeout
    this.#outerSignal = options.signal
    this.connection = { ...checked, signal: this.#controller.signal }
    this.client = new TargetClient(this.connection)
    this.target = describeTarget(checked.base)
    this.redact = tokenRedactor(checked.token)
    if (options.signal?.aborted === true) this.#controller.abort()
    options.signal?.addEventListener('abort', this.#stopFromOutside)
    if (options.runTimeout !== undefined) this.#timer = setTimeout(() => this.#controller.abort(), options.runTimeout)
  }

  /** Sends a request with the target's token, unless the request sets its own Authorization (or none). */
  async send (request: TargetRequest, withToken = true): Promise<TargetAnswer> {
    try {
      return await this.client.send(withToken ? this.client.authorized(request) : request)
    } catch (error) {
      throw this.#fatal(error as NoAnswerError) ?? error
    }
  }

  /** The error that ends the whole run, if this failure is one: the target cannot be reached, or the run is over. */
  #fatal (error: NoAnswerError): TargetLinkError | undefined {
    if (this.#controller.signal.aborted) {
      return new TargetLinkError(this.#outerSignal?.aborted === true ? 'stopped before the run was complete' : `the run took longer than ${String(this.#runTimeout)} ms`)
    }
    return error.unreachable ? unreachableError(error, this.target) : undefined
  }

  /** Replaces the token wherever it appears in text the target sent, in any of its forms. */
  readonly redact: (text: string) => string

  /** A report with the token replaced in every string: line ids, JSON paths and request paths come from the target too. */
  redactAll<T> (report: T): T {
    return redactStrings(report, this.redact)
  }

  /** Stops the run's timer and closes its connections to the target. */
  async end (): Promise<void> {
    clearTimeout(this.#timer)
    this.#outerSignal?.removeEventListener('abort', this.#stopFromOutside)
    await this.client.close()
  }
}
