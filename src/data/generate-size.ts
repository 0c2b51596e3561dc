import { Type, type Static } from '@sinclair/typebox'

/** Most cameras --generate makes. */
export const MAX_GENERATED_CAMERAS = 10_000
/** Most lines per camera --generate makes. */
export const MAX_LINES_PER_CAMERA = 10_000
// Every answer is serialized up front: a million lines take a few seconds and about 1 GB (see docs/fixtures.md).
/** Most lines --generate makes in all. */
export const MAX_GENERATED_LINES = 1_000_000

/** How much synthetic data to serve: cam-1 … cam-N, each with line-1 … line-M. */
export const GenerateSizeSchema = Type.Object({
  /** How many cameras, from 1. */
  cameras: Type.Integer({ minimum: 1, maximum: MAX_GENERATED_CAMERAS }),
  /** How many lines each camera has, from 0. */
  linesPerCamera: Type.Integer({ minimum: 0, maximum: MAX_LINES_PER_CAMERA })
}, { additionalProperties: false })
/** A size for --generate, as TypeScript sees it. */
export type GenerateSize = Static<typeof GenerateSizeSchema>

/** Why a size is too large in all, or undefined when it fits; the schema bounds each number on its own. */
export function describeOversize ({ cameras, linesPerCamera }: GenerateSize): string | undefined {
  const total = cameras * linesPerCamera
  if (total <= MAX_GENERATED_LINES) return undefined
  return `${cameras}x${linesPerCamera} makes ${total} lines; at most ${MAX_GENERATED_LINES} lines in all can be generated`
}

/**
 * Reads CAMERASxLINES, e.g. 100x20; returns the problem as a sentence when the text is not a valid size.
 * Spaces around the x are allowed, so `--generate "100 x 20"` works too.
 */
export function parseGenerateSize (text: string): GenerateSize | string {
  const match = /^\s*(\d+)\s*[xX×]\s*(\d+)\s*$/.exec(text)
  if (match === null) return `must be CAMERASxLINES, e.g. 100x20, not '${text}'`
  const size = { cameras: Number(match[1]), linesPerCamera: Number(match[2]) }
  if (size.cameras < 1 || size.cameras > MAX_GENERATED_CAMERAS) {
    return `needs from 1 to ${MAX_GENERATED_CAMERAS} cameras, not ${match[1] as string} (in '${text}')`
  }
  if (size.linesPerCamera > MAX_LINES_PER_CAMERA) {
    return `needs from 0 to ${MAX_LINES_PER_CAMERA} lines per camera, not ${match[2] as string} (in '${text}')`
  }
  return describeOversize(size) ?? size
}

/** Generated data: "CAMERASxLINES" as a flag takes it ("10x5"), or { cameras, linesPerCamera }. */
export const GenerateSchema = Type.Transform(Type.Union([Type.String({ minLength: 1 }), GenerateSizeSchema], {
  description: 'CAMERASxLINES like "10x5", or { "cameras": N, "linesPerCamera": M }'
}))
  .Decode(size => typeof size === 'string' ? parseGenerateSize(size) as GenerateSize : size)
  .Encode(size => size)
