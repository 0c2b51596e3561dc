import { Type, type TObject, type TSchema } from '@sinclair/typebox'
import { FixtureDataSchema, IdSchema } from '../contract/schemas.js'
import { adminPathOf, RUN_TIME_SETTINGS, setterOf, type RunTimeSetting } from '../config/settings.js'
import { FaultSpecSchema } from '../control/faults/fault-spec.js'
import { HealthSpecSchema } from '../health/health-states.js'
import { ClockBodySchema } from './clock-routes.js'
import type { Device } from '../device/device.js'
import { apiErrors } from '../wire/errors.js'
import { healthOf, setHealth, type SharedPortClock } from './device-health-rules.js'
import { devicePage } from './journal-page.js'
import { MAX_LIMIT, pageQuery, SteppedAnswer, type Query } from './paging.js'

/** A call of the admin API: the method, the path below /__admin (a device's own, or the fleet's), and the body. */
export interface AdminCall {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE'
  path: string
  body?: unknown
}

/** What a device's admin route reads of its request: the checked body and the path's parameters. */
export interface VerbInput {
  body: unknown
  params: Readonly<Record<string, string>>
  /** The query string's parameters: a page's `limit` and `since`. */
  query?: Query
  /** Whether the admin API shares the device's port, and on which clock (device-health-rules.ts says why it matters). */
  sharedPortClock: SharedPortClock
}

/** What an admin verb logs once done: a line at info, with fields, never a token. */
export interface VerbLog {
  fields?: object
  message: string
}

/**
 * One verb, declared once, as the handle, the admin API and an MCP tool all offer it: the tool's name and
 * description, the body the admin route takes (the very schema it checks), the admin call the tool makes, and for
 * a device's verb what its admin route does to the device. The admin API's device routes are made from these rows
 * (verb-routes.ts), and so are the MCP tools.
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
   * device's clock), no device named; `fleet`: a fleet's only.
   */
  scope: 'device' | 'fleet-too' | 'process' | 'fleet'
  /** Whether it changes nothing (an MCP client may call it without asking). */
  readOnly?: boolean
  /** A device's verb as its admin route carries it out: the answer's content. The process's and fleet's verbs have routes of their own. */
  run?: (device: Device, input: VerbInput) => unknown
  /** The line its admin route logs once done. */
  logged?: (content: unknown, input: VerbInput) => VerbLog
  /** The paths of its admin route, when more than the call's: a fault cleared by its id too. */
  paths?: readonly string[]
  /** The success status, 200 when absent. */
  status?: number
  /** The largest body its admin route takes, when more than the app's. */
  bodyLimit?: number
  /** Whether the verb checks the body itself, in its own words (a health state's HealthSpecError), not the route. */
  checksItsBody?: boolean
}

/** Replacement data may be large (generated data serializes to tens of megabytes). */
const DATA_BODY_LIMIT = 64 * 1024 * 1024

const get = (path: string) => () => ({ method: 'GET', path }) as const

/** The arguments of a paged read: its MCP tool's, which become the admin call's query. */
const JournalPageSchema = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, description: 'entries at most in this page; a device\'s whole journal, or 10,000 of a fleet\'s, when absent' })),
  since: Type.Optional(Type.String({ minLength: 1, description: 'the page\'s start: the `next` of the page before, or an ISO 8601 time (the requests answered after it)' }))
}, { additionalProperties: false })
const DevicesPageSchema = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, description: 'devices at most in this page; 1,000 when absent' })),
  after: Type.Optional(Type.String({ minLength: 1, description: 'the page\'s start: the devices after this one, the `next` of the page before' }))
}, { additionalProperties: false })

// One fault by its id (a 404 when there is none), or every fault.
function clearFaults (device: Device, id: string | undefined): null {
  if (id === undefined) device.clearFaults()
  else if (!device.clearFaults(id)) throw apiErrors.faultNotFound(id)
  return null
}

/**
 * A run-time setting's two verbs, from its row of the settings table: `set…` (PUT of its path), and its reading
 * (GET), which only the admin API and the MCP tools offer. The admin body is `{ "<setting>": value }`, or the value.
 */
function settingRows ([setting, { value, bodyIsTheValue, describe, logged }]: readonly [string, RunTimeSetting]): VerbRow[] {
  const verb = setterOf(setting)
  const path = adminPathOf(setting)
  const described = { ...value, description: describe.value }
  const set: VerbRow = {
    name: verb,
    verb,
    scope: 'device',
    ...(bodyIsTheValue === true ? { wrap: { name: setting, schema: value, description: describe.value } } : { body: Type.Object({ [setting]: described }, { additionalProperties: false }) }),
    description: describe.set,
    call: () => ({ method: 'PUT', path }),
    run: (device, { body }) => callVerb(device, verb, bodyIsTheValue === true ? body : (body as Record<string, unknown>)[setting]),
    logged: summary => ({ fields: summary as object, message: logged })
  }
  const read: VerbRow = { name: setting, verb: `admin:GET ${path}`, scope: 'device', readOnly: true, description: describe.read, call: get(path), run: device => callVerb(device, setting) }
  return [set, read]
}

// The device's verb of that name: a setting's rows are made from its name.
function callVerb (device: Device, verb: string, ...value: unknown[]): unknown {
  const verbs = device as unknown as Record<string, (...value: unknown[]) => unknown>
  return (verbs[verb] as (...value: unknown[]) => unknown).apply(device, value)
}

/** Every verb, once: the MCP tools are made from these rows, and a test holds them to the handle's verbs. */
export const VERB_TABLE: readonly VerbRow[] = [
  { name: 'data', verb: 'data', scope: 'device', readOnly: true, description: 'The data the device serves, in the shape of a fixture file: its cameras and counting lines.', call: get('/data'), run: device => device.data() },
  { name: 'use', verb: 'use', scope: 'device', body: FixtureDataSchema, description: 'Serves this data from the next request on. It is checked as a fixture file is; a refusal lists each problem, and nothing changes.', call: () => ({ method: 'PUT', path: '/data' }), bodyLimit: DATA_BODY_LIMIT, run: (device, { body }) => device.use(body, 'request body'), logged: summary => ({ fields: summary as object, message: 'admin: data replaced' }) },
  { name: 'resetData', verb: 'resetData', scope: 'device', description: 'Serves the start-up data again (with watch on, what the fixture files hold now).', call: () => ({ method: 'DELETE', path: '/data' }), run: device => device.resetData(), logged: summary => ({ fields: summary as object, message: 'admin: data reset to the start-up data' }) },
  { name: 'requests', verb: 'requests', scope: 'fleet-too', readOnly: true, body: JournalPageSchema, description: 'The journal: the requests the device received (admin calls aside), oldest first, a page at a time: `limit` entries from `since`; the answer\'s `next` is the `since` of the page after, and `more` says whether one is there already.', call: args => ({ method: 'GET', path: `/requests${pageQuery(args, ['limit', 'since'])}` }), run: (device, { query }) => new SteppedAnswer('requests', devicePage(device.journal, query)) },
  { name: 'resetRequests', verb: 'resetRequests', scope: 'fleet-too', description: 'Empties the request journal.', call: () => ({ method: 'DELETE', path: '/requests' }), run: device => { device.resetRequests(); return null } },
  { name: 'events', verb: 'events', scope: 'device', readOnly: true, description: 'The changes of health and the data edits (drift), oldest first.', call: get('/events'), run: device => device.eventList() },
  { name: 'injectFault', verb: 'injectFault', scope: 'fleet-too', body: FaultSpecSchema, description: 'Injects a fault on the device API: an error status, a dropped connection, a malformed body and/or a delay, for every request, one route or one camera, for the next `times` requests or until cleared. Answers the fault with its id.', call: () => ({ method: 'POST', path: '/faults' }), status: 201, run: (device, { body }) => device.injectFault(body), logged: fault => ({ fields: { fault }, message: `admin: ${(fault as { id: string }).id} injected` }) },
  { name: 'faults', verb: 'faults', scope: 'fleet-too', readOnly: true, description: 'The faults in force, oldest first, with how many requests each still applies to.', call: get('/faults'), run: device => device.faults() },
  {
    name: 'clearFaults',
    verb: 'clearFaults',
    scope: 'fleet-too',
    body: Type.Object({ id: Type.Optional({ ...IdSchema, description: 'the fault\'s id, as injectFault answered it; every fault when absent' }) }),
    description: 'Clears one fault by its id, or every fault.',
    call: ({ id }) => ({ method: 'DELETE', path: id === undefined ? '/faults' : `/faults/${encodeURIComponent(String(id))}` }),
    paths: ['/faults', '/faults/:id'],
    run: (device, { params: { id } }) => clearFaults(device, id),
    logged: (_cleared, { params: { id } }) => ({ message: id === undefined ? 'admin: every fault cleared' : `admin: ${id} cleared` })
  },
  ...RUN_TIME_SETTINGS.flatMap(settingRows),
  { name: 'setHealth', verb: 'setHealth', scope: 'device', body: HealthSpecSchema, description: 'Puts the device in a health state now: online, offline (its port refuses connections), unreachable (connections hang), rebooting (down, then starting with 503s), slow or flapping, each with its parameters. Answers once its port has followed.', call: () => ({ method: 'PUT', path: '/health' }), checksItsBody: true, run: async (device, { body, sharedPortClock }) => await setHealth(healthOf(device), body, sharedPortClock), logged: (_report, { body }) => ({ fields: { health: body }, message: `admin: health set to ${String((body as { state?: unknown }).state)}` }) },
  { name: 'health', verb: 'health', scope: 'device', readOnly: true, description: 'The device\'s health now, and the changes its schedule makes next.', call: get('/health'), run: device => healthOf(device).report() },
  { name: 'reset', verb: 'reset', scope: 'fleet-too', description: 'Back to the start: the start-up data, scoped tokens and rate limit, no faults, an empty journal, its health and drift from their start. Answers once its port has followed.', call: () => ({ method: 'POST', path: '/reset' }), run: async device => { await device.reset(); return null }, logged: () => ({ message: 'admin: reset to the start-up data, scoped tokens and rate limit, no faults, an empty journal' }) },
  { name: 'clockNow', verb: 'clock.now', scope: 'process', readOnly: true, description: 'The time by the device\'s clock (health schedules, drift, latency and delays, the rate limit).', call: get('/clock') },
  { name: 'advanceClock', verb: 'clock.advance', scope: 'process', body: ClockBodySchema, description: 'Moves a manual clock on by `advance` milliseconds, running every change due on the way; answers once the ports have followed. The real clock refuses.', call: () => ({ method: 'POST', path: '/clock' }) },
  { name: 'devices', verb: 'devices', scope: 'fleet', readOnly: true, body: DevicesPageSchema, description: 'The devices of the fleet, a page at a time (`limit`, 1,000 by default, `after` a device\'s name): each one\'s name, URL, cameras, state, requests and faults; the answer\'s `next` is the `after` of the page after, null on the last.', call: args => ({ method: 'GET', path: `/devices${pageQuery(args, ['limit', 'after'])}` }) }
]
