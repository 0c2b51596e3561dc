import { Type, type Static } from '@sinclair/typebox'
import { checkerOnFirstUse } from '../../util/checker-on-first-use.js'
import { DelaySchema, toDelayRange, type DelayRange } from '../../util/delay.js'
import { IdSchema } from '../../contract/schemas.js'
import { FAULT_KIND_FIELDS, FAULT_KIND_NAMES } from './fault-kinds.js'
import { OPERATIONS, type OperationName, type OperationRow } from '../../contract/paths.js'
import { listValueProblems, type ValueProblem } from '../../util/value-errors.js'
import { InvalidFaultError } from '../../errors/errors.js'

/** The operations of the device API, as a fault's `route` names them: one literal per row of paths.ts. */
const OperationSchema = Type.Union(OPERATIONS.map(row => Type.Literal(row.name)), {
  description: OPERATIONS.map(row => `"${row.name}"`).join(' or ')
})
export type Operation = OperationName

/**
 * What to do to matching requests, and which: an answer (status, drop or malformed) and/or a delay,
 * for every request or one route or one camera, for the next `times` requests or until cleared.
 */
export const FaultSpecSchema = Type.Object({
  /** What to answer with: status, drop or malformed (one row each in fault-kinds.ts). */
  ...FAULT_KIND_FIELDS,
  /** The envelope's errorCode, instead of "INJECTED_FAULT": a device's own code, say. */
  errorCode: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  /** The envelope's errorMessage, instead of "Injected fault: 503 Service Unavailable." */
  errorMessage: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  /** Seconds for Retry-After; sent on 429 and 503 anyway (default 1), and on any status when given. */
  retryAfter: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400 })),
  /** Wait this long first (instead of --latency); alone, it only slows the request down. */
  delay: Type.Optional(DelaySchema),
  /** Only requests of this operation. */
  route: Type.Optional(OperationSchema),
  /** Only requests for this camera id. */
  camera: Type.Optional(IdSchema),
  /** Only the next N matching requests; until cleared when absent. */
  times: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 }))
}, { additionalProperties: false })
/** A fault to inject, as `injectFault()` and `POST /__admin/faults` take it. */
export type FaultSpec = Static<typeof FaultSpecSchema>

/** An injected fault: its spec, its id, and how many requests it still applies to (null: until cleared). */
export type Fault = FaultSpec & { id: string, remaining: number | null }

const faultSpecChecker = checkerOnFirstUse(FaultSpecSchema)

/** Checks a fault spec as given by a user; returns it typed, or throws InvalidFaultError. */
export function parseFaultSpec (value: unknown): FaultSpec {
  const checkFaultSpec = faultSpecChecker()
  if (!checkFaultSpec.Check(value)) throw new InvalidFaultError(listValueProblems(checkFaultSpec, value))
  const problems = combinationProblems(value)
  if (problems.length > 0) throw new InvalidFaultError(problems)
  return value
}

// What the schema cannot say: one answer at most, something to do, and fields that need a status.
function combinationProblems (spec: FaultSpec): ValueProblem[] {
  const answers = FAULT_KIND_NAMES.filter(answer => spec[answer] !== undefined)
  const problems: ValueProblem[] = []
  if (answers.length > 1) problems.push({ path: `/${answers[1] as string}`, message: `cannot be combined with ${answers[0] as string}: a request gets one answer` })
  if (answers.length === 0 && spec.delay === undefined) problems.push({ path: '', message: 'needs status, drop, malformed or delay: what should happen to the requests' })
  for (const field of ['errorCode', 'errorMessage', 'retryAfter'] as const) {
    if (spec[field] !== undefined && spec.status === undefined) problems.push({ path: `/${field}`, message: 'only goes with status' })
  }
  if (spec.delay !== undefined) {
    const range = toDelayRange(spec.delay)
    if (typeof range === 'string') problems.push({ path: '/delay', message: range })
  }
  return problems
}

/** Whether a fault's scope takes in this request: every request, or the given route and/or camera. */
export function appliesTo ({ route, camera }: FaultSpec, request: ScopedRequest): boolean {
  if (route === undefined && camera === undefined) return true
  const operation = operationOf(request)
  if (operation === undefined) return false
  return (route === undefined || route === operation) &&
    (camera === undefined || camera === request.params.id)
}

/** The delay of a checked spec as a range, if it has one. */
export function delayRangeOf ({ delay }: FaultSpec): DelayRange | undefined {
  // parseFaultSpec refused a backwards range, so this is always a range.
  return delay === undefined ? undefined : toDelayRange(delay) as DelayRange
}

/** What fault scoping reads of a request: its method, the operation at its path (if any) and its parameters. */
export interface ScopedRequest {
  method: string
  operation: OperationRow | undefined
  params: Readonly<Record<string, string>>
}

/** Which of the two operations a request is; undefined for another method or path. */
function operationOf ({ operation, method }: ScopedRequest): Operation | undefined {
  return operation !== undefined && operation.methods.includes(method) ? operation.name : undefined
}
