import type { TSchema } from '@sinclair/typebox'
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler'

/**
 * A TypeBox checker compiled when first asked for, not when its module loads: a plain start never checks a
 * fault, a health state or a scoped token, and each compilation costs a start a few milliseconds.
 */
export function checkerOnFirstUse<T extends TSchema> (schema: T): () => TypeCheck<T> {
  let checker: TypeCheck<T> | undefined
  return () => (checker ??= TypeCompiler.Compile(schema))
}
