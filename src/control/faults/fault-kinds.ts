import { Type, type TOptional, type TSchema } from '@sinclair/typebox'
import { apiErrors } from '../../wire/errors.js'
import type { RecordedRequest } from '../journal.js'

/** What a fault answers with instead of the usual answer: one kind, with the fields that go with a status. */
export interface Answer {
  status?: number
  errorCode?: string
  errorMessage?: string
  retryAfter?: number
  drop?: true
  malformed?: true
}

// The little of Fastify's request, reply and hook a fault touches, so these rows reach no server types.
interface FaultRequest extends RecordedRequest {}
interface FaultReply {
  hijack: () => unknown
  raw: { destroy: () => unknown }
  elapsedTime: number
  send: (payload?: unknown) => unknown
}
type Done = (error?: Error) => void
/** Where a dropped request is recorded, since it never completes. */
interface DropRecorder {
  dropped: (request: RecordedRequest, durationMs: number) => void
}

interface FaultKind {
  /** The value of the kind's field in a fault spec. */
  schema: TSchema
  /** Ends the fault hook with this kind's answer. */
  apply: (answer: Answer, request: FaultRequest, reply: FaultReply, done: Done, recorder: DropRecorder | undefined) => void
}

/**
 * Every kind of answer a fault can give, one row each: the field that asks for it in a fault spec, that
 * field's schema, and what it does to a request. A fault spec holds at most one of these fields.
 */
export const FAULT_KINDS = {
  /** Answer with this status, in the error envelope. */
  status: {
    schema: Type.Integer({ minimum: 400, maximum: 599 }),
    apply: (answer, _request, _reply, done) => done(apiErrors.injected(answer.status as number, answer.errorMessage, answer.retryAfter, answer.errorCode))
  },
  /** Close the connection without answering. */
  drop: {
    schema: Type.Literal(true),
    apply: (_answer, request, reply, done, recorder) => {
      dropConnection(request, reply, recorder)
      done()
    }
  },
  /** Answer as usual, but with the JSON body cut off halfway. */
  malformed: {
    schema: Type.Literal(true),
    apply: (_answer, _request, reply, done) => {
      malformBody(reply)
      done()
    }
  }
} satisfies Record<string, FaultKind>

export type FaultKindName = keyof typeof FAULT_KINDS
export const FAULT_KIND_NAMES = Object.keys(FAULT_KINDS) as FaultKindName[]

/** The kinds' fields of a fault spec's schema, each optional. */
export const FAULT_KIND_FIELDS = Object.fromEntries(FAULT_KIND_NAMES.map(name => [name, Type.Optional(FAULT_KINDS[name].schema)])) as
  { [Name in FaultKindName]: TOptional<(typeof FAULT_KINDS)[Name]['schema']> }

/** Ends the fault hook with the answer of the kind the fault asks for; with none, the request goes on as usual. */
export function carryOut (answer: Answer | undefined, request: FaultRequest, reply: FaultReply, done: Done, recorder: DropRecorder | undefined): void {
  const kind = answer === undefined ? undefined : FAULT_KIND_NAMES.find(name => answer[name] !== undefined)
  if (kind === undefined) {
    done()
    return
  }
  FAULT_KINDS[kind].apply(answer as Answer, request, reply, done, recorder)
}

/**
 * Closes the connection without a byte of answer, as a device that crashed or lost power would.
 * Fastify never completes such a request, so it is recorded here.
 */
function dropConnection (request: FaultRequest, reply: FaultReply, recorder: DropRecorder | undefined): void {
  reply.hijack()
  recorder?.dropped(request, reply.elapsedTime)
  // Destroying the response destroys its socket; inject() rejects with LIGHT_ECONNRESET likewise.
  reply.raw.destroy()
}

/**
 * Lets the request be answered as usual, with its status and headers, but cuts the body in half:
 * a client's JSON parser then fails as it would on a connection cut mid-answer.
 */
function malformBody (reply: FaultReply): void {
  const send = reply.send
  reply.send = function sendCutOff (payload?: unknown) {
    // An error goes to the error handler first, whose envelope comes back here as a string.
    if (typeof payload !== 'string' && !(payload instanceof Uint8Array)) return send.call(this, payload)
    const bytes = typeof payload === 'string' ? new TextEncoder().encode(payload) : payload
    return send.call(this, bytes.subarray(0, Math.floor(bytes.length / 2)))
  }
}
