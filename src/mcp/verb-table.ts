import { Type, type TObject, type TProperties } from '@sinclair/typebox'
import { VERB_TABLE, type VerbRow } from '../admin-api/verbs.js'

export { VERB_TABLE, type VerbRow }

/** What a tool's `device` argument takes to act on every device of a fleet at once. */
export const EVERY_DEVICE = '*'

/** The JSON Schema of a row's arguments, for one device (`fleet` false) or a fleet, whose tools name the device. */
export function inputSchemaOf (row: VerbRow, fleet: boolean): TObject {
  const own: TProperties = row.body?.properties ?? (row.wrap === undefined ? {} : { [row.wrap.name]: { ...row.wrap.schema, description: row.wrap.description } })
  const named = fleet && (row.scope === 'device' || row.scope === 'fleet-too')
  const device = Type.String({ minLength: 1, description: row.scope === 'fleet-too' ? `the device's name, or "${EVERY_DEVICE}" for every device` : 'the device\'s name' })
  // Fields the admin body refuses, the tool refuses too.
  const closed = row.body?.additionalProperties === false || row.wrap !== undefined
  return withoutIds(Type.Object(named ? { device, ...own } : own, closed ? { additionalProperties: false } : {}))
}

/**
 * The schema without the `$id`s the contract gives its shapes (`CountingLine`) for the OpenAPI document: inside a
 * tool's arguments they are only names, which a client compiling every tool's schema into one validator would see twice.
 */
function withoutIds<T> (schema: T): T {
  if (Array.isArray(schema)) return schema.map(withoutIds) as T
  if (typeof schema !== 'object' || schema === null) return schema
  return Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$id').map(([key, value]) => [key, withoutIds(value)])) as T
}

/** The rows a mock-nvr offers: a single one's, or a fleet's. */
export function rowsFor (fleet: boolean): readonly VerbRow[] {
  return VERB_TABLE.filter(row => fleet || row.scope !== 'fleet')
}
