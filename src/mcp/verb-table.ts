import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox'
import { FixtureDataSchema, IdSchema, RateLimitBodySchema, ScopedTokensSchema } from '../contract/schemas.js'
import { FaultSpecSchema } from '../control/faults/fault-spec.js'
import { HealthSpecSchema } from '../health/health-states.js'
import { ClockBodySchema } from '../admin-api/clock-routes.js'

/** A call of the admin API: the method, the path below /__admin (a device's own, or the fleet's), and the body. */
export interface AdminCall {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE'
  path: string
  body?: unknown
}

/**
 * One verb, as the handle, the admin API and an MCP tool all offer it: the tool's name and description, the body
 * the admin route takes (the very schema it checks), and the admin call the tool makes.
 */
export interface VerbRow {
  /** The tool's name: the handle's verb (`injectFault`), or what the handle's `clock` and a fleet's handle call it. */
  name: string
  /**
   * The verb it serves: a key of the handle's DeviceVerbs, `clock.now` or `clock.advance` of its clock, a fleet
   * handle's `devices`, or `admin:` and the route for a read only the admin API offers.
   */
  verb: string
  description: string
  /** The admin body's schema when the body is the arguments (an object); `wrap` names the argument that holds a body of another kind. */
  body?: TObject
  wrap?: { name: string, schema: TSchema, description: string }
  /** The admin call of these arguments (the body aside), below a device's /__admin. */
  call: (args: Record<string, unknown>) => Omit<AdminCall, 'body'>
  /**
   * `device`: one device's verb, which a fleet's tool names a device for; `fleet-too` the same, and the fleet has
   * it for every device at once, at the same path under its own /__admin; `process`: one for the whole process (the
   * schedules' clock), no device named; `fleet`: a fleet's only.
   */
  scope: 'device' | 'fleet-too' | 'process' | 'fleet'
  /** Whether it changes nothing (an MCP client may call it without asking). */
  readOnly?: boolean
}

const get = (path: string) => () => ({ method: 'GET', path }) as const

/** Every verb, once: the MCP tools are made from these rows, and a test holds them to the handle's verbs. */
export const VERB_TABLE: readonly VerbRow[] = [
  { name: 'data', verb: 'data', scope: 'device', readOnly: true, description: 'The data the device serves, in the shape of a fixture file: its cameras and counting lines.', call: get('/data') },
  { name: 'use', verb: 'use', scope: 'device', body: FixtureDataSchema, description: 'Serves this data from the next request on. It is checked as a fixture file is; a refusal lists each problem, and nothing changes.', call: () => ({ method: 'PUT', path: '/data' }) },
  { name: 'resetData', verb: 'resetData', scope: 'device', description: 'Serves the start-up data again (with watch on, what the fixture files hold now).', call: () => ({ method: 'DELETE', path: '/data' }) },
  { name: 'requests', verb: 'requests', scope: 'fleet-too', readOnly: true, description: 'The journal: the requests the device received (admin calls aside), oldest first.', call: get('/requests') },
  { name: 'resetRequests', verb: 'resetRequests', scope: 'fleet-too', description: 'Empties the request journal.', call: () => ({ method: 'DELETE', path: '/requests' }) },
  { name: 'events', verb: 'events', scope: 'device', readOnly: true, description: 'The changes of health and the data edits (drift), oldest first.', call: get('/events') },
  { name: 'injectFault', verb: 'injectFault', scope: 'fleet-too', body: FaultSpecSchema, description: 'Injects a fault on the device API: an error status, a dropped connection, a malformed body and/or a delay, for every request, one route or one camera, for the next `times` requests or until cleared. Answers the fault with its id.', call: () => ({ method: 'POST', path: '/faults' }) },
  { name: 'faults', verb: 'faults', scope: 'fleet-too', readOnly: true, description: 'The faults in force, oldest first, with how many requests each still applies to.', call: get('/faults') },
  {
    name: 'clearFaults',
    verb: 'clearFaults',
    scope: 'fleet-too',
    body: Type.Object({ id: Type.Optional({ ...IdSchema, description: 'the fault\'s id, as injectFault answered it; every fault when absent' }) }),
    description: 'Clears one fault by its id, or every fault.',
    call: ({ id }) => ({ method: 'DELETE', path: id === undefined ? '/faults' : `/faults/${encodeURIComponent(String(id))}` })
  },
  {
    name: 'setScopedTokens',
    verb: 'setScopedTokens',
    scope: 'device',
    wrap: { name: 'scopedTokens', schema: ScopedTokensSchema, description: 'each token and the ids of the cameras it sees; [] for none' },
    description: 'Replaces the scoped tokens: bearer tokens of the device API that see only some cameras (any other camera is 403 for them). Answers how many there are, never the tokens.',
    call: () => ({ method: 'PUT', path: '/scoped-tokens' })
  },
  { name: 'scopedTokens', verb: 'admin:GET /scoped-tokens', scope: 'device', readOnly: true, description: 'How many scoped tokens are in force (never the tokens themselves).', call: get('/scoped-tokens') },
  { name: 'setRateLimit', verb: 'setRateLimit', scope: 'device', body: RateLimitBodySchema, description: 'Sets the rate limit per token of the device API (requests per second, a burst of as many), or turns it off with null.', call: () => ({ method: 'PUT', path: '/rate-limit' }) },
  { name: 'rateLimit', verb: 'admin:GET /rate-limit', scope: 'device', readOnly: true, description: 'The rate limit in force: requests per second per token, or null when off.', call: get('/rate-limit') },
  { name: 'setHealth', verb: 'setHealth', scope: 'device', body: HealthSpecSchema, description: 'Puts the device in a health state now: online, offline (its port refuses connections), unreachable (connections hang), rebooting (down, then starting with 503s), slow or flapping, each with its parameters. Answers once its port has followed.', call: () => ({ method: 'PUT', path: '/health' }) },
  { name: 'health', verb: 'health', scope: 'device', readOnly: true, description: 'The device\'s health now, and the changes its schedule makes next.', call: get('/health') },
  { name: 'reset', verb: 'reset', scope: 'fleet-too', description: 'Back to the start: the start-up data, scoped tokens and rate limit, no faults, an empty journal, its health and drift from their start. Answers once its port has followed.', call: () => ({ method: 'POST', path: '/reset' }) },
  { name: 'clockNow', verb: 'clock.now', scope: 'process', readOnly: true, description: 'The time by the schedules\' clock (health schedules, drift, delays).', call: get('/clock') },
  { name: 'advanceClock', verb: 'clock.advance', scope: 'process', body: ClockBodySchema, description: 'Moves a manual clock on by `advance` milliseconds, running every change due on the way; answers once the ports have followed. The real clock refuses.', call: () => ({ method: 'POST', path: '/clock' }) },
  { name: 'devices', verb: 'devices', scope: 'fleet', readOnly: true, description: 'Every device of the fleet: its name, URL, cameras, state, requests and faults.', call: get('/devices') }
]

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
