import { isDeepStrictEqual } from 'node:util'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { isRealInstant } from '../data/fixture-validation.js'
import { describeValueError, valueErrors } from '../util/value-errors.js'
import { CountingLineSchema, type CountingLine } from '../contract/schemas.js'
import { parseBody } from './answer-shape.js'
import type { TargetAnswer } from './target-client.js'
import type { Violation } from '../errors/target-report.js'

export type { Violation }

/** Where an answer being checked came from, and how to keep the token out of what is reported. */
export interface CheckContext {
  camera: string
  request: string
  /** Replaces the token in any text the target sent before it is reported. */
  redact: (text: string) => string
}

// The ten fields come from the wire schema: each is checked on its own, so every field gets its own problem.
const FIELDS = Object.entries(CountingLineSchema.properties).map(([name, schema]) => ({ name, check: TypeCompiler.Compile(schema) }))
const FIELD_NAMES = new Set(FIELDS.map(({ name }) => name))
const TIMESTAMP_FIELDS = ['created', 'updated'] as const
const EXCERPT_LENGTH = 60

/** A list answer, checked: the lines that keep the contract in list order, and every violation. */
export interface CheckedList {
  /** Whether the answer was a 200 whose envelope holds an array (its lines may still break the contract). */
  listed: boolean
  violations: Violation[]
  /** Every line object of the answer, valid or not, with a usable id (to retrieve each by it). */
  lines: Array<{ id: string, line: Record<string, unknown> }>
  /** The lines that keep the contract, as sent. */
  validLines: CountingLine[]
}

/** Checks a list answer: status, JSON, envelope, and every line's fields, camera and id. */
export function checkListAnswer (answer: TargetAnswer, context: CheckContext): CheckedList {
  const checked: CheckedList = { listed: false, violations: [], lines: [], validLines: [] }
  const envelope = checkEnvelope(answer, context, 'array', checked.violations)
  if (envelope === undefined) return checked
  checked.listed = true
  const seen = new Map<string, number>()
  ;(envelope.content as unknown[]).forEach((item, index) => {
    const before = checked.violations.length
    const id = isObject(item) && typeof item.id === 'string' && item.id !== '' ? item.id : undefined
    const label = id ?? `#${index}`
    const report = (path: string, problem: string): void => {
      checked.violations.push({ camera: context.camera, line: label, request: context.request, path: `/content/${index}${path}`, problem })
    }
    if (!isObject(item)) {
      report('', `must be a counting line object, not ${describeJsonType(item)}`)
      return
    }
    checkLineFields(item, report, context)
    if (typeof item.camera_id === 'string' && item.camera_id !== context.camera) {
      report('/camera_id', `must be the camera asked for, ${JSON.stringify(context.camera)}, not ${JSON.stringify(context.redact(item.camera_id))}`)
    }
    if (id !== undefined) {
      const earlier = seen.get(id)
      if (earlier !== undefined) report('/id', `repeats the id of /content/${earlier}: ids must be unique within a camera`)
      else {
        seen.set(id, index)
        checked.lines.push({ id, line: item })
      }
    }
    if (checked.violations.length === before) checked.validLines.push(item as CountingLine)
  })
  return checked
}

/** Checks a retrieve answer against the line the list holds; returns its violations. */
export function checkLineAnswer (answer: TargetAnswer, listed: Record<string, unknown>, context: CheckContext & { line: string }): Violation[] {
  const violations: Violation[] = []
  const envelope = checkEnvelope(answer, context, 'object', violations, context.line)
  if (envelope === undefined) return violations
  const content = envelope.content as Record<string, unknown>
  for (const name of new Set([...Object.keys(listed), ...Object.keys(content)])) {
    if (isDeepStrictEqual(content[name], listed[name])) continue
    const problem = !(name in content)
      ? 'is missing here, but in the list'
      : !(name in listed)
          ? 'is here, but not in the list'
          : `differs from the list: ${excerpt(JSON.stringify(listed[name]), context)} there, ${excerpt(JSON.stringify(content[name]), context)} here`
    violations.push({ camera: context.camera, line: context.line, request: context.request, path: `/content/${pointerSegment(name)}`, problem })
  }
  return violations
}

/** Checks a retrieve answer on its own (as the proxy sees one): envelope, the line's fields, its camera and its id. */
export function checkRetrievedLine (answer: TargetAnswer, context: CheckContext & { line: string }): Violation[] {
  const violations: Violation[] = []
  const envelope = checkEnvelope(answer, context, 'object', violations, context.line)
  if (envelope === undefined) return violations
  const item = envelope.content as Record<string, unknown>
  const report = (path: string, problem: string): void => { violations.push({ camera: context.camera, line: context.line, request: context.request, path: `/content${path}`, problem }) }
  checkLineFields(item, report, context)
  if (typeof item.camera_id === 'string' && item.camera_id !== context.camera) report('/camera_id', `must be the camera asked for, ${JSON.stringify(context.camera)}, not ${JSON.stringify(context.redact(item.camera_id))}`)
  if (typeof item.id === 'string' && item.id !== context.line) report('/id', `must be the line asked for, ${JSON.stringify(context.line)}, not ${JSON.stringify(context.redact(item.id))}`)
  return violations
}

/** The answer's parsed envelope when it is a 200 with a success envelope and content of the kind expected; else undefined, and why in violations. */
function checkEnvelope (answer: TargetAnswer, context: CheckContext, kind: 'array' | 'object', violations: Violation[], line: string | null = null): Record<string, unknown> | undefined {
  const report = (path: string, problem: string): void => { violations.push({ camera: context.camera, line, request: context.request, path, problem }) }
  if (answer.status >= 300 && answer.status < 400) {
    const location = answer.headers.location
    report('', `answered ${answer.status}, a redirect${location === undefined ? '' : ` to ${excerpt(location, context)}`}, not 200 (redirects are not followed)`)
    return undefined
  }
  if (answer.status !== 200) {
    report('', `answered ${answer.status}, not 200${describeErrorBody(answer, context)}`)
    return undefined
  }
  const body = parseBody(answer.body)
  if (body === undefined) {
    report('', `the body is not JSON (${describeContent(answer, context)})`)
    return undefined
  }
  if (!isObject(body)) {
    report('', `the body must be the envelope object, not ${describeJsonType(body)}`)
    return undefined
  }
  const result = body.result
  if (!isObject(result)) report('/result', result === undefined ? 'is missing' : `must be an object, not ${describeJsonType(result)}`)
  else {
    if (result.success !== true) report('/result/success', result.success === undefined ? 'is missing' : `must be true, not ${excerpt(JSON.stringify(result.success), context)}`)
    if (result.httpCode === undefined) report('/result/httpCode', 'is missing')
    else if (!Number.isInteger(result.httpCode)) report('/result/httpCode', `must be a whole number, not ${excerpt(JSON.stringify(result.httpCode), context)}`)
    else if (result.httpCode !== 200) report('/result/httpCode', `must be 200, the status, not ${String(result.httpCode)}`)
  }
  const content = body.content
  const rightKind = kind === 'array' ? Array.isArray(content) : isObject(content)
  if (!rightKind) {
    report('/content', content === undefined ? 'is missing' : `must be ${kind === 'array' ? 'an array of counting lines' : 'a counting line object'}, not ${describeJsonType(content)}`)
    return undefined
  }
  return body
}

function checkLineFields (item: Record<string, unknown>, report: (path: string, problem: string) => void, context: CheckContext): void {
  for (const { name, check } of FIELDS) {
    if (!(name in item)) {
      report(`/${name}`, 'is missing')
      continue
    }
    // What the field must be in the words of every file the user writes; the value quoted as a target's always is, redacted.
    const error = valueErrors(check, item[name])[0]
    if (error !== undefined) report(`/${name}`, `${describeValueError(error).message}, not ${excerpt(JSON.stringify(item[name]), context)}`)
  }
  for (const name of TIMESTAMP_FIELDS) {
    const value = item[name]
    if (typeof value === 'string' && check(name, value) && !isRealInstant(value)) report(`/${name}`, `${JSON.stringify(value)} is not a real date and time`)
  }
  for (const name of Object.keys(item)) {
    if (!FIELD_NAMES.has(name)) report(`/${pointerSegment(name)}`, 'is an extra field: a counting line has exactly the ten fields of the spec')
  }
}

function check (name: string, value: unknown): boolean {
  return FIELDS.find(field => field.name === name)?.check.Check(value) === true
}

/** What an error answer said: its errorMessage (or an older "message"), or what the body is when it is not JSON. */
function describeErrorBody (answer: TargetAnswer, context: CheckContext): string {
  if (answer.body.length === 0) return ''
  const body = parseBody(answer.body)
  if (body === undefined) return ` (${describeContent(answer, context)})`
  const result = isObject(body) && isObject(body.result) ? body.result : {}
  const message = [result.errorMessage, result.message].find(text => typeof text === 'string')
  return message === undefined ? '' : `: ${excerpt(message, context)}`
}

function describeContent (answer: TargetAnswer, context: CheckContext): string {
  const type = answer.headers['content-type'] ?? 'no Content-Type'
  if (answer.body.length === 0) return `${type}, empty`
  return `${type}, starting ${excerpt(answer.body.subarray(0, 200).toString('utf8'), context)}`
}

/** A short, one-line, token-free quote of text the target sent. */
export function excerpt (text: string, context: Pick<CheckContext, 'redact'>): string {
  // eslint-disable-next-line no-control-regex
  const oneLine = context.redact(text).replace(/[\u0000-\u001f\u007f]+/g, ' ')
  return oneLine.length > EXCERPT_LENGTH ? `${oneLine.slice(0, EXCERPT_LENGTH)}…` : oneLine
}

function describeJsonType (value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

function isObject (value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** One segment of a JSON Pointer, escaped as RFC 6901 says. */
export function pointerSegment (name: string): string {
  return name.replaceAll('~', '~0').replaceAll('/', '~1')
}
