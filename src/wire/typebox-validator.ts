import type { TSchema } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import type { FastifyRouteSchemaDef, FastifyValidationResult } from 'fastify/types/schema.js'
import { listValueProblems, type ValueProblem } from '../util/value-errors.js'

/**
 * A Fastify validator compiler that checks with TypeBox's compiled checker, as fixtures and fault specs
 * are checked, and refuses a value with the error `refuse` makes of its problems. Fastify's default would
 * build an Ajv instance at start: tens of milliseconds of start-up for a few small schemas.
 */
export function compileWithTypeBox (refuse: (problems: ValueProblem[]) => Error) {
  return function compile ({ schema }: FastifyRouteSchemaDef<unknown>): FastifyValidationResult {
    const checker = TypeCompiler.Compile(schema as TSchema)
    return function check (value: unknown) {
      // true, not { value }: the value stands as it is, and a request costs no result object.
      return checker.Check(value) ? true : { error: refuse(listValueProblems(checker, value)) }
    }
  }
}
