import { Type, type Static, type TLiteral } from '@sinclair/typebox'
import { TOKEN_PATTERN } from '../util/token-characters.js'
import { TIMESTAMP_PATTERN } from '../util/timestamp-pattern.js'

/** Longest id a fixture may hold; every such id stays reachable through the URL (see limits.ts). */
export const MAX_ID_LENGTH = 1024

export { TIMESTAMP_PATTERN }

export const IdSchema = Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH })

// A pattern, not format: 'date-time': TypeBox ships no formats and a pattern means the same everywhere.
export const TimestampSchema = Type.String({
  pattern: TIMESTAMP_PATTERN,
  description: 'UTC timestamp with millisecond precision',
  examples: ['2024-05-01T08:30:00.000Z']
})

export const CountingLineSchema = Type.Object({
  id: IdSchema,
  camera_id: IdSchema,
  name: Type.String(),
  // What real NVRs send, as descriptions only: the seed leaves these fields open, so any value is served.
  counting_line: Type.String({ description: 'The line, as real NVRs send it: WKT LINESTRING(x y, x y, …) in pixels of the camera\'s frame' }),
  anchor: Type.String({ description: 'A WKT POINT(x y) on the side of the line that counts as IN' }),
  coalesce_entries: Type.Boolean({ description: 'Whether one tracked object counts once: a re-crossing in the same direction is ignored, a crossing back undoes the count' }),
  class: Type.String({ description: 'What the detector counts, such as person, roller bags, shoulder bags or carry-ons' }),
  max_age: Type.Integer({ description: 'How many frames a lost track lives on' }),
  created: TimestampSchema,
  updated: TimestampSchema
}, { $id: 'CountingLine', additionalProperties: false })
export type CountingLine = Static<typeof CountingLineSchema>

/**
 * A literal number said to be an integer: Type.Literal writes type: number, which a Go, Java or C# client
 * generator makes a float. Literal keeps the static type and the check (=== value); only `type` changes.
 */
function IntegerLiteral<T extends number> (value: T): TLiteral<T> {
  return { ...Type.Literal(value), type: 'integer' }
}

const SuccessResultSchema = Type.Object({
  success: Type.Literal(true),
  httpCode: IntegerLiteral(200)
})

export const CountingLineEnvelopeSchema = Type.Object({
  result: SuccessResultSchema,
  content: Type.Ref(CountingLineSchema)
}, { $id: 'CountingLineEnvelope' })
export type CountingLineEnvelope = Static<typeof CountingLineEnvelopeSchema>

export const CountingLineListEnvelopeSchema = Type.Object({
  result: SuccessResultSchema,
  content: Type.Array(Type.Ref(CountingLineSchema))
}, { $id: 'CountingLineListEnvelope' })
export type CountingLineListEnvelope = Static<typeof CountingLineListEnvelopeSchema>

export const ErrorEnvelopeSchema = Type.Object({
  result: Type.Object({
    success: Type.Literal(false),
    httpCode: Type.Integer({ minimum: 400, maximum: 599 }),
    errorCode: Type.String({ minLength: 1, description: 'A stable, machine-readable code for the case (see the catalogue in docs/contract.md)' }),
    errorMessage: Type.String({ description: 'One human-readable sentence' }),
    problems: Type.Optional(Type.Array(Type.Object({
      path: Type.String({ description: 'A JSON Pointer into the request body; empty for the whole body' }),
      message: Type.String({ description: 'What is wrong there' })
    }), { description: 'For a request body with mistakes (the admin API\'s INVALID_BODY): each one, as data' }))
  }),
  content: Type.Null()
}, { $id: 'ErrorEnvelope' })
export type ErrorEnvelope = Static<typeof ErrorEnvelopeSchema>

export const CameraSchema = Type.Object({ id: IdSchema }, { additionalProperties: false })
export type Camera = Static<typeof CameraSchema>

/** The shape of one fixture file, and of the data a test may hand to startMockNvr. */
export const FixtureDataSchema = Type.Object({
  cameras: Type.Optional(Type.Array(CameraSchema)),
  counting_lines: Type.Optional(Type.Array(CountingLineSchema))
}, { additionalProperties: false })
export type FixtureData = Static<typeof FixtureDataSchema>

export const CameraParamsSchema = Type.Object({
  id: Type.String({ description: 'Identifier of the camera' })
})

export const CountingLineParamsSchema = Type.Object({
  id: Type.String({ description: 'Identifier of the camera' }),
  line_id: Type.String({ description: 'Identifier of the counting line' })
})

/** A bearer token: visible ASCII only, as every HTTP client sends it alike (util/token-characters.ts). */
export const TokenSchema = Type.String({ minLength: 1, pattern: TOKEN_PATTERN })

/** A bearer token that sees only some cameras; any other camera is 403 for it. */
export const ScopedTokenSchema = Type.Object({
  token: TokenSchema,
  /** The ids of the cameras it sees; none is allowed (every camera is then 403). */
  cameras: Type.Array(IdSchema)
}, { additionalProperties: false })
export type ScopedToken = Static<typeof ScopedTokenSchema>

/** Scoped tokens; the same token twice sees the cameras of both entries. */
export const ScopedTokensSchema = Type.Array(ScopedTokenSchema)
