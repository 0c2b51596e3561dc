import type { IncomingMessage } from 'node:http'
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify'
import { RequestJournal } from '../control/journal.js'
import { RequestRecorder } from '../control/request-recorder.js'
import { createLogger, requestLineLevel, requestLineWriter } from '../logging/logger.js'
import { RecordEachRequest } from './request-log-controller.js'
import { roleOf, type ListenerRole } from './http-server.js'

/**
 * Where an app's requests are logged and journaled: each device's recorder, with its own log when it has one
 * (a fleet device's lines name it), and for a fleet's control address, which is no device, a recorder of its own.
 */
export class RequestLogging {
  readonly #ownRole: ListenerRole
  /** A fleet's control address's: its admin calls are logged without a device's name, and never journaled. */
  readonly #controlRecorder: RequestRecorder | undefined
  readonly #logger: FastifyBaseLogger
  #app: FastifyInstance | undefined

  constructor (ownRole: ListenerRole, isFleet: boolean, logger: FastifyBaseLogger | undefined) {
    this.#ownRole = ownRole
    this.#controlRecorder = isFleet ? new RequestRecorder(new RequestJournal(0)) : undefined
    // Without a logger Fastify never calls the log controller, which records the journal: a silent one then.
    this.#logger = logger ?? createLogger({ logLevel: 'silent', prettyLogs: false })
  }

  /** Fastify's options for it: the logger, the controller that records each request, and a fleet device's child logs. */
  fastifyOptions (): Pick<FastifyServerOptions, 'loggerInstance' | 'logController' | 'childLoggerFactory'> {
    const ownRole = this.#ownRole
    const recorderOf = (request: FastifyRequest): RequestRecorder => {
      const role = roleOf(request.raw, ownRole)
      return role === ownRole && this.#controlRecorder !== undefined ? this.#controlRecorder : role.device.recorder
    }
    // A fleet device's request log (faults, errors) names the device, as its request lines do.
    const logOfListener: FastifyServerOptions['childLoggerFactory'] = (log, bindings, options, raw) => (roleOf(raw as IncomingMessage, ownRole).log ?? log).child(bindings, options)
    return {
      loggerInstance: this.#logger,
      logController: new RecordEachRequest(recorderOf),
      ...(this.#controlRecorder === undefined ? {} : { childLoggerFactory: logOfListener })
    }
  }

  /** Starts writing the app's own listener's request lines, through the app's log. */
  register (app: FastifyInstance): void {
    this.#app = app
    this.logRequestsOf(this.#controlRecorder ?? this.#ownRole.device.recorder, undefined)
  }

  /** Writes a recorder's request lines to this log, or the app's (whose child app.log is; the quick line writer is the logger's own). */
  logRequestsOf (recorder: RequestRecorder, log: FastifyBaseLogger | undefined): void {
    if (log === undefined) recorder.logTo((this.#app as FastifyInstance).log, requestLineWriter(this.#logger))
    else recorder.logTo(log, requestLineWriter(log), requestLineLevel(log))
  }
}
