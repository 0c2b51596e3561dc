import { JSON_CONTENT_TYPE } from '../contract/envelope.js'

const BOM = '\ufeff'
const QUOTE_LENGTH = 32
const NAMES_SHOWN = 5

// The members the envelope has: the seed's, and the error members of the vendor's documentation.
const TOP_MEMBERS = new Set(['result', 'content'])
const RESULT_MEMBERS = new Set(['success', 'httpCode', 'errorCode', 'errorMessage'])

/** What a body is, as far as a client acts on it, and where it departs from mock-nvr's where the seed does not rule. */
export interface BodyShape {
  /**
   * 'success envelope', 'error envelope' (success false, httpCode equal to the status), 'error envelope,
   * httpCode N' (another code), 'other JSON', 'not JSON: "its first characters…"', or 'empty'.
   */
  kind: string
  /** The body starts with a byte-order mark (read past it, as browsers do). */
  bom: boolean
  /** Envelope members neither the seed nor the vendor's documentation shows, as paths: `meta`, `result.traceId`. */
  extraMembers: string[]
  /** An error envelope's errorCode as sent, quoted, or '(none)'. */
  errorCode?: string
  /** What an error envelope's errorMessage is: 'a string', 'an empty string', 'a number', '(none)', or '(none); "message" instead'. */
  errorMessage?: string
}

/** The JSON a body holds, read past a byte-order mark; undefined when it is not JSON. */
export function parseBody (body: Buffer): unknown {
  try {
    const text = body.toString('utf8')
    return JSON.parse(text.startsWith(BOM) ? text.slice(1) : text)
  } catch {
    return undefined
  }
}

/** The shape of an answer's body; `redact` keeps the token out of what is quoted. */
export function shapeOf (status: number, body: Buffer, redact: (text: string) => string = text => text): BodyShape {
  const bom = body.subarray(0, 3).equals(Buffer.from(BOM))
  if (body.length === 0) return { kind: 'empty', bom, extraMembers: [] }
  const value = parseBody(body)
  // Its Content-Type is beside it in the report, among the headers that differ.
  if (value === undefined) return { kind: `not JSON: ${quote(body.toString('utf8'), redact)}`, bom, extraMembers: [] }
  const result = isObject(value) ? value.result : undefined
  if (!isObject(value) || !isObject(result) || !('content' in value) || typeof result.success !== 'boolean') return { kind: 'other JSON', bom, extraMembers: [] }
  // An older "message" in place of errorMessage is said by errorMessage's description, not again here.
  const olderMessage = !result.success && result.errorMessage === undefined && typeof result.message === 'string'
  const extraMembers = [
    ...Object.keys(value).filter(name => !TOP_MEMBERS.has(name)),
    ...Object.keys(result).filter(name => !RESULT_MEMBERS.has(name) && !(olderMessage && name === 'message')).map(name => `result.${name}`)
  ]
  if (result.success) return { kind: 'success envelope', bom, extraMembers }
  return {
    kind: result.httpCode === status ? 'error envelope' : `error envelope, httpCode ${JSON.stringify(result.httpCode)}`,
    bom,
    extraMembers,
    errorCode: typeof result.errorCode === 'string' ? quote(result.errorCode, redact) : result.errorCode === undefined ? '(none)' : `not a string: ${quote(JSON.stringify(result.errorCode), redact)}`,
    errorMessage: describeErrorMessage(result)
  }
}

/** The shape in one phrase: its kind, then what departs (extra members, a byte-order mark). */
export function describeShape ({ kind, bom, extraMembers }: BodyShape): string {
  return [kind, ...(extraMembers.length > 0 ? [`members the seed does not show: ${listNames(extraMembers)}`] : []), ...(bom ? ['after a byte-order mark'] : [])].join('; ')
}

function listNames (names: string[]): string {
  return names.slice(0, NAMES_SHOWN).join(', ') + (names.length > NAMES_SHOWN ? `, and ${names.length - NAMES_SHOWN} more` : '')
}

/**
 * Where a success answer that keeps the contract departs from mock-nvr's own where the seed does not rule:
 * another Content-Type, a byte-order mark, extra envelope members. Each is one phrase; none is a violation.
 */
export function unruledDepartures (contentType: string | undefined, body: Buffer, redact: (text: string) => string): string[] {
  const shape = shapeOf(200, body, redact)
  const departures: string[] = []
  if (!isJsonContentType(contentType)) departures.push(`Content-Type ${contentType ?? '(none)'}, not ${JSON_CONTENT_TYPE}`)
  if (shape.bom) departures.push('a byte-order mark before the JSON')
  if (shape.extraMembers.length > 0) departures.push(`envelope members the seed does not show: ${listNames(shape.extraMembers)}`)
  return departures.map(redact)
}

/** Whether a Content-Type is mock-nvr's, however spaced or cased. */
export function isJsonContentType (contentType: string | undefined): boolean {
  return contentType?.toLowerCase().replace(/\s+/g, '') === JSON_CONTENT_TYPE.replace(' ', '')
}

function describeErrorMessage (result: Record<string, unknown>): string {
  const message = result.errorMessage
  if (message === undefined) return typeof result.message === 'string' ? '(none); "message" instead' : '(none)'
  if (typeof message !== 'string') return message === null ? 'null' : `a ${typeof message}`
  return message === '' ? 'an empty string' : 'a string'
}

/** A short, one-line, token-free quote of text the target sent. */
function quote (text: string, redact: (text: string) => string): string {
  // eslint-disable-next-line no-control-regex
  const oneLine = redact(text).replace(/[\u0000-\u001f\u007f\ufeff]+/g, ' ').trim()
  return JSON.stringify(oneLine.length > QUOTE_LENGTH ? `${oneLine.slice(0, QUOTE_LENGTH)}…` : oneLine)
}

function isObject (value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
