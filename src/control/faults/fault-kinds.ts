import { Type, type TOptional, type TSchema } from '@sinclair/typebox'
import { apiErrors, type ApiError } from '../../wire/errors.js'

/** What a fault answers with instead of the usual answer: one kind, with the fields that go with a status. */
export interface Answer {
  status?: number
  errorCode?: string
  errorMessage?: string
  retryAfter?: number
  drop?: true
  malformed?: true
}

/** What a fault does to a request: refuse it with an error, drop its connection, or cut its body in half. */
export type FaultEffect = ApiError | 'drop' | 'cut'

interface FaultKind {
  /** The value of the kind's field in a fault spec. */
  schema: TSchema
  /** What this kind does to a request. */
  effect: (answer: Answer) => FaultEffect
}

/**
 * Every kind of answer a fault can give, one row each: the field that asks for it in a fault spec, that
 * field's schema, and what it does to a request. A fault spec holds at most one of these fields.
 */
export const FAULT_KINDS = {
  /** Answer with this status, in the error envelope. */
  status: {
    schema: Type.Integer({ minimum: 400, maximum: 599 }),
    effect: answer => apiErrors.injected(answer.status as number, answer.errorMessage, answer.retryAfter, answer.errorCode)
  },
  /** Close the connection without a byte of answer, as a device that crashed or lost power would. */
  drop: {
    schema: Type.Literal(true),
    effect: () => 'drop'
  },
  /**
   * Answer as usual, with its status and headers, but with the body cut off halfway: a client's JSON parser then
   * fails as it would on a connection cut mid-answer.
   */
  malformed: {
    schema: Type.Literal(true),
    effect: () => 'cut'
  }
} satisfies Record<string, FaultKind>

export type FaultKindName = keyof typeof FAULT_KINDS
export const FAULT_KIND_NAMES = Object.keys(FAULT_KINDS) as FaultKindName[]

/** The kinds' fields of a fault spec's schema, each optional. */
export const FAULT_KIND_FIELDS = Object.fromEntries(FAULT_KIND_NAMES.map(name => [name, Type.Optional(FAULT_KINDS[name].schema)])) as
  { [Name in FaultKindName]: TOptional<(typeof FAULT_KINDS)[Name]['schema']> }

/** What the answer a fault asks for does to a request; none when it asks only for a delay. */
export function effectOf (answer: Answer | undefined): FaultEffect | undefined {
  const kind = answer === undefined ? undefined : FAULT_KIND_NAMES.find(name => answer[name] !== undefined)
  return kind === undefined ? undefined : FAULT_KINDS[kind].effect(answer as Answer)
}
