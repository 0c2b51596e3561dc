import t, { type Test } from 'tap'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { startMockNvr, type MockNvr, type StartOptions } from '../../src/start/start-mock-nvr.js'
import { startMockFleet, type MockFleet } from '../../src/fleet/start-mock-fleet.js'
import { rowsFor } from '../../src/mcp/verb-table.js'
import { AUTH, line } from '../helpers/app.js'
import { captureLogs } from '../helpers/log-capture.js'

const TOKEN = 'admin-secret'
const BEARER = { authorization: `Bearer ${TOKEN}` }
const DATA = { cameras: [{ id: 'cam-1' }, { id: 'cam-2' }], counting_lines: [line()] }
const LIST = '/nvr/v1/cameras/cam-1/counting_lines'

/** An SDK client of the MCP endpoint at this admin address, closed after the test. */
async function connect (t: Test, url: string, headers: Record<string, string> = BEARER): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL('/__admin/mcp', url), { requestInit: { headers } }))
  t.teardown(async () => await client.close())
  return client
}

async function start (t: Test, options: StartOptions = {}): Promise<MockNvr> {
  const nvr = await startMockNvr({ port: 0, logLevel: 'silent', data: DATA, adminToken: TOKEN, ...options })
  t.teardown(nvr.close)
  return nvr
}

async function startFleet (t: Test, count = 2): Promise<MockFleet> {
  const fleet = await startMockFleet({ count, port: 0, logLevel: 'silent', data: DATA, adminToken: TOKEN, clock: 'manual' })
  t.teardown(fleet.close)
  return fleet
}

interface Called {
  isError: boolean
  text: string
  json: any
}

/** Calls a tool and reads its answer: JSON, or the text `done` of a verb that answers nothing. */
async function call (client: Client, name: string, args: Record<string, unknown> = {}): Promise<Called> {
  const result = await client.callTool({ name, arguments: args }) as CallToolResult
  const text = (result.content[0] as { text: string }).text
  return { isError: result.isError === true, text, json: text === 'done' ? null : JSON.parse(text) }
}

async function status (url: string): Promise<number> {
  return (await fetch(`${url}${LIST}`, { headers: AUTH })).status
}

t.test('a single mock-nvr lists a tool for each verb of its table, each with the admin body\'s schema', async t => {
  const nvr = await start(t)
  const client = await connect(t, nvr.url)
  const { tools } = await client.listTools()
  t.strictSame(tools.map(tool => tool.name).sort(), rowsFor(false).map(row => row.name).sort())
  const inject = tools.find(tool => tool.name === 'injectFault')
  t.match(inject, { inputSchema: { type: 'object', additionalProperties: false, properties: { status: { type: 'integer' }, times: { minimum: 1 } } }, annotations: { readOnlyHint: false } })
  t.notOk('device' in (inject?.inputSchema.properties ?? {}), 'one device: no device is named')
  t.match(tools.find(tool => tool.name === 'faults'), { annotations: { readOnlyHint: true } })
  t.match(client.getInstructions(), /steer it through its admin API/)
})

t.test('a fault injected by a tool is seen by a client of the device port, then cleared', async t => {
  const nvr = await start(t)
  const client = await connect(t, nvr.url)
  const injected = await call(client, 'injectFault', { status: 503, times: 1 })
  t.match(injected, { isError: false, json: { id: 'fault-1', status: 503, remaining: 1 } })
  t.match((await call(client, 'faults')).json, [{ id: 'fault-1' }])
  t.equal(await status(nvr.url), 503, 'the next request of the device API meets it')
  t.equal(await status(nvr.url), 200, 'once')
  await call(client, 'injectFault', { status: 500 })
  t.match(await call(client, 'clearFaults', { id: 'fault-2' }), { isError: false, text: 'done' })
  t.match(await call(client, 'clearFaults', { id: 'fault-2' }), { isError: true, json: { httpCode: 404, errorCode: 'FAULT_NOT_FOUND', errorMessage: 'No fault has the id "fault-2".' } })
  await call(client, 'injectFault', { drop: true })
  t.match(await call(client, 'clearFaults'), { isError: false })
  t.strictSame((await call(client, 'faults')).json, [])
})

t.test('bad arguments are a tool error naming each field, in the admin API\'s words; nothing changes', async t => {
  const nvr = await start(t)
  const client = await connect(t, nvr.url)
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['injectFault', { status: 42 }, '/status'],
    ['use', { cameras: [{ name: 'x' }] }, '/cameras/0'],
    ['setScopedTokens', { scopedTokens: [{ token: 'tok', cameras: 'cam-1' }] }, '/scopedTokens/0/cameras'],
    ['setRateLimit', { rateLimit: 0 }, '/rateLimit'],
    ['setHealth', { state: 'asleep' }, '/state']
  ]
  for (const [name, args, path] of cases) {
    const answer = await call(client, name, args)
    t.ok(answer.isError, name)
    t.match(answer.json, { success: false, httpCode: 400, errorCode: 'INVALID_BODY', problems: [{ path }] }, name)
    t.match(answer.json.errorMessage, path, `${name}: the sentence names the field too`)
  }
  t.match(await call(client, 'setScopedTokens', {}), { isError: true, json: { errorCode: 'INVALID_BODY', problems: [{ path: '/scopedTokens', message: /^is required/ }] } })
  t.match(await call(client, 'noSuchTool'), { isError: true, json: { errorCode: 'UNKNOWN_TOOL' } })
  await call(client, 'injectFault', { status: 503 })
  for (const id of ['', 7]) {
    t.match(await call(client, 'clearFaults', { id }), { isError: true, json: { errorCode: 'INVALID_BODY', errorMessage: /^The arguments are invalid: \/id: /, problems: [{ path: '/id' }] } }, `id ${JSON.stringify(id)}`)
  }
  t.equal((await call(client, 'faults')).json.length, 1, 'no fault was cleared')
  await call(client, 'clearFaults')
  t.strictSame((await call(client, 'faults')).json, [], 'nothing was injected')
})

t.test('data, tokens, rate limit and journal, each through its tool', async t => {
  const nvr = await start(t)
  const client = await connect(t, nvr.url)
  t.match((await call(client, 'data')).json, { cameras: [{ id: 'cam-1' }, { id: 'cam-2' }] })
  t.strictSame((await call(client, 'use', { cameras: [{ id: 'cam-9' }] })).json, { cameras: 1, countingLines: 0 })
  t.strictSame((await call(client, 'resetData')).json, { cameras: 2, countingLines: 1 })
  t.strictSame((await call(client, 'setScopedTokens', { scopedTokens: [{ token: 'only-cam-2', cameras: ['cam-2'] }] })).json, { scopedTokens: 1 })
  t.strictSame((await call(client, 'scopedTokens')).json, { scopedTokens: 1 })
  t.equal((await fetch(`${nvr.url}${LIST}`, { headers: { authorization: 'Bearer only-cam-2' } })).status, 403, 'the scoped token sees cam-2 alone')
  t.strictSame((await call(client, 'setRateLimit', { rateLimit: 5 })).json, { rateLimit: 5 })
  t.strictSame((await call(client, 'rateLimit')).json, { rateLimit: 5 })
  await status(nvr.url)
  const journal = (await call(client, 'requests')).json
  t.match(journal, { requests: [{ method: 'GET', url: LIST }, { method: 'GET', url: LIST }], total: 2 })
  t.notOk(journal.requests.some((entry: { url: string }) => entry.url.startsWith('/__admin')), 'the tools\' admin calls are not journalled')
  t.match(await call(client, 'resetRequests'), { text: 'done' })
  t.match((await call(client, 'requests')).json, { requests: [] })
  t.match((await call(client, 'events')).json, [])
})

t.test('health and clock on a real clock: the admin API\'s rules for a port it shares', async t => {
  const nvr = await start(t)
  const client = await connect(t, nvr.url)
  t.match((await call(client, 'health')).json, { state: 'online', listening: true })
  t.match(await call(client, 'setHealth', { state: 'offline' }), { isError: true, json: { errorCode: 'INVALID_BODY', problems: [{ path: '/for' }] } })
  t.match((await call(client, 'setHealth', { state: 'slow', latency: 1 })).json, { state: 'slow', latency: 1 })
  t.match((await call(client, 'events')).json, [{ state: 'slow' }])
  t.match(await call(client, 'clockNow'), { isError: false, json: { now: /^\d{4}-/ } })
  t.match(await call(client, 'advanceClock', { advance: 10 }), { isError: true, json: { httpCode: 409, errorCode: 'CLOCK_NOT_MANUAL' } })
  t.match(await call(client, 'reset'), { isError: false, text: 'done' })
  t.match((await call(client, 'health')).json, { state: 'online' })
})

t.test('a manual clock moved by a tool walks the schedule; a state that would lock the admin API out is refused', async t => {
  const nvr = await start(t, { clock: 'manual' })
  const client = await connect(t, nvr.url)
  t.match(await call(client, 'advanceClock', { advance: -1 }), { isError: true, json: { errorCode: 'INVALID_BODY', problems: [{ path: '/advance' }] } })
  const before = Date.parse((await call(client, 'clockNow')).json.now)
  const moved = await call(client, 'advanceClock', { advance: 1000 })
  t.equal(Date.parse(moved.json.now) - before, 1000)
  t.match(await call(client, 'setHealth', { state: 'rebooting' }), { isError: true, json: { httpCode: 409, errorCode: 'HEALTH_LOCKS_OUT' } })
})

t.test('resources: the OpenAPI document, the journal and each camera\'s data, read without a tool', async t => {
  const nvr = await start(t)
  const client = await connect(t, nvr.url)
  const { resources } = await client.listResources()
  t.strictSame(resources.map(resource => resource.uri), ['mock-nvr://openapi.json', 'mock-nvr://requests', 'mock-nvr://cameras/cam-1', 'mock-nvr://cameras/cam-2'])
  const read = async (uri: string) => JSON.parse(((await client.readResource({ uri })).contents[0] as { text: string }).text)
  await status(nvr.url)
  t.match(await read('mock-nvr://requests'), { requests: [{ url: LIST }], total: 1 })
  t.match(await read('mock-nvr://openapi.json'), { openapi: /^3\./, paths: {} })
  t.strictSame(await read('mock-nvr://cameras/cam-1'), { camera: { id: 'cam-1' }, counting_lines: [line()] })
  t.strictSame(await read('mock-nvr://cameras/cam-2'), { camera: { id: 'cam-2' }, counting_lines: [] })
  await t.rejects(client.readResource({ uri: 'mock-nvr://cameras/cam-3' }), { message: /No camera is at mock-nvr:\/\/cameras\/cam-3/ })
  for (const uri of ['mock-nvr://manifest', 'mock-nvr://nothing/here', 'https://example.com/', 'mock-nvr://devices/nvr-001/requests']) {
    await t.rejects(client.readResource({ uri }), { message: /No resource is at/ }, uri)
  }
  const { resourceTemplates } = await client.listResourceTemplates()
  t.strictSame(resourceTemplates.map(template => template.uriTemplate), ['mock-nvr://cameras/{camera}'])
})

t.test('a fleet: every tool names its device, or every device where the fleet has the verb', async t => {
  const fleet = await startFleet(t)
  const client = await connect(t, fleet.controlUrl)
  const [first, second] = fleet.devices as [MockNvr, MockNvr]
  const { tools } = await client.listTools()
  t.strictSame(tools.map(tool => tool.name).sort(), rowsFor(true).map(row => row.name).sort())
  t.match(tools.find(tool => tool.name === 'setHealth'), { inputSchema: { required: ['device', 'state'], properties: { device: { description: 'the device\'s name' } } } })
  t.match(tools.find(tool => tool.name === 'reset'), { inputSchema: { required: ['device'], properties: { device: { description: /"\*" for every device/ } } } })
  t.notOk('device' in (tools.find(tool => tool.name === 'advanceClock')?.inputSchema.properties ?? {}), 'one clock for the fleet')
  t.match((await call(client, 'devices')).json, { devices: [{ name: first.name, state: 'online' }, { name: second.name }] })

  // A device put offline: its port refuses connections once the tool answers; the other device serves on.
  t.match((await call(client, 'setHealth', { device: second.name, state: 'offline' })).json, { state: 'offline', listening: false })
  await t.rejects(fetch(`${second.url}${LIST}`, { headers: AUTH }), { cause: { code: 'ECONNREFUSED' } })
  t.equal(await status(first.url), 200)
  t.match((await call(client, 'health', { device: second.name })).json, { state: 'offline' })

  t.match((await call(client, 'injectFault', { device: '*', status: 429 })).json, [{ device: first.name, status: 429 }, { device: second.name, status: 429 }])
  t.equal(await status(first.url), 429)
  t.match((await call(client, 'faults', { device: first.name })).json, [{ status: 429 }])
  t.match(await call(client, 'clearFaults', { device: '*' }), { text: 'done' })
  t.match((await call(client, 'requests', { device: '*' })).json, { requests: [{ device: first.name }, { device: first.name }], total: 2 })
  t.match((await call(client, 'requests', { device: first.name })).json, { requests: [{ url: LIST }], total: 2 })
  t.match(await call(client, 'resetRequests', { device: '*' }), { text: 'done' })
  // A reboot on the manual clock: down until the clock is moved on, then back once the tool answers.
  t.match((await call(client, 'setHealth', { device: first.name, state: 'rebooting', down: 1000, starting: 1000 })).json, { state: 'rebooting', phase: 'down' })
  await t.rejects(fetch(`${first.url}${LIST}`, { headers: AUTH }), { cause: { code: 'ECONNREFUSED' } })
  t.match((await call(client, 'advanceClock', { advance: 1000 })).json, { now: /^\d{4}-/ })
  t.equal(await status(first.url), 503, 'starting')
  await call(client, 'advanceClock', { advance: 1000 })
  t.equal(await status(first.url), 200, 'rebooted')
  t.match(await call(client, 'reset', { device: '*' }), { text: 'done' })
  t.equal(await status(second.url), 200, 'reset answers once the port is back')
  t.match(await call(client, 'reset', { device: first.name }), { text: 'done' })
})

t.test('a fleet\'s tool without a device, or with one there is none of, is a tool error saying so', async t => {
  const fleet = await startFleet(t)
  const client = await connect(t, fleet.controlUrl)
  t.match(await call(client, 'health'), { isError: true, json: { errorCode: 'INVALID_BODY', errorMessage: 'The arguments are invalid: /device: must be a device\'s name.', problems: [{ path: '/device', message: 'must be a device\'s name' }] } })
  t.match(await call(client, 'reset', { device: '' }), { isError: true, json: { problems: [{ path: '/device', message: 'must be a device\'s name, or "*" for every device' }] } })
  t.match(await call(client, 'setHealth', { device: '*', state: 'online' }), { isError: true, json: { problems: [{ path: '/device', message: /acts on one device at a time/ }] } })
  t.match(await call(client, 'data', { device: 'nvr-999' }), { isError: true, json: { httpCode: 404, errorCode: 'DEVICE_NOT_FOUND', errorMessage: 'No device of the fleet is named "nvr-999".' } })
})

t.test('a fleet\'s resources: its manifest, its journal, and each device\'s journal and cameras', async t => {
  const fleet = await startFleet(t, 1)
  const client = await connect(t, fleet.controlUrl)
  const name = (fleet.devices[0] as MockNvr).name
  const { resources } = await client.listResources()
  t.strictSame(resources.map(resource => resource.uri), [
    'mock-nvr://openapi.json', 'mock-nvr://requests', 'mock-nvr://manifest',
    `mock-nvr://devices/${name}/requests`, `mock-nvr://devices/${name}/cameras/cam-1`, `mock-nvr://devices/${name}/cameras/cam-2`
  ])
  const read = async (uri: string) => JSON.parse(((await client.readResource({ uri })).contents[0] as { text: string }).text)
  t.match(await read('mock-nvr://manifest'), { devices: [{ name, cameras: ['cam-1', 'cam-2'] }] })
  t.match(await read('mock-nvr://requests'), { requests: [], total: 0 })
  t.match(await read(`mock-nvr://devices/${name}/requests`), { requests: [], total: 0 })
  t.match(await read(`mock-nvr://devices/${name}/cameras/cam-1`), { camera: { id: 'cam-1' } })
  await t.rejects(client.readResource({ uri: 'mock-nvr://devices/nvr-999/requests' }), { message: /No device of the fleet is named "nvr-999"/ })
  for (const uri of ['mock-nvr://devices', 'mock-nvr://devices/x/y', 'mock-nvr://cameras/cam-1']) {
    await t.rejects(client.readResource({ uri }), { message: /No resource is at/ }, uri)
  }
  const { resourceTemplates } = await client.listResourceTemplates()
  t.strictSame(resourceTemplates.map(template => template.uriTemplate), ['mock-nvr://devices/{device}/cameras/{camera}', 'mock-nvr://devices/{device}/requests'])
})

t.test('no tool without the admin token, nor for a page of another origin', async t => {
  const logs = captureLogs()
  const nvr = await start(t, { logger: logs.logger })
  await t.rejects(connect(t, nvr.url, {}), { code: 401 }, 'no token')
  await t.rejects(connect(t, nvr.url, { authorization: 'Bearer not-the-admin-token' }), { code: 401 }, 'a wrong token')
  await t.rejects(connect(t, nvr.url, { authorization: `Bearer ${TOKEN}`, origin: 'http://evil.example:8080' }), { code: 403 }, 'another origin')
  const port = new URL(nvr.url).port
  await t.rejects(connect(t, nvr.url, { authorization: `Bearer ${TOKEN}`, origin: `http://rebound.example:${port}` }), { code: 403 }, 'a name that resolves here')
  const own = await connect(t, nvr.url, { authorization: `Bearer ${TOKEN}`, origin: `http://localhost:${port}` })
  t.match(await call(own, 'health'), { isError: false }, 'the mock-nvr\'s own origin')
  const refused = await fetch(`${nvr.url}/__admin/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://evil.example' }, body: '{}' })
  t.equal(refused.status, 401, 'the token is checked first, in the admin API\'s envelope')
  t.match(await refused.json(), { result: { errorCode: 'NO_CREDENTIALS' } })
  for (const method of ['GET', 'DELETE', 'PUT']) {
    const other = await fetch(`${nvr.url}/__admin/mcp`, { method, headers: { ...BEARER, accept: 'text/event-stream' } })
    t.equal(other.status, 405, `${method}: no stream held open, no session to end`)
    t.equal(other.headers.get('allow'), 'POST')
  }
  t.notOk(JSON.stringify(logs.records).includes(TOKEN), 'no log line holds the admin token')
})

t.test('no tool answer holds a token', async t => {
  const nvr = await start(t, { tokens: ['device-secret'] })
  const client = await connect(t, nvr.url)
  await call(client, 'setScopedTokens', { scopedTokens: [{ token: 'scoped-secret', cameras: [] }] })
  for (const row of rowsFor(false).filter(row => row.readOnly === true)) {
    const answer = await call(client, row.name)
    t.notMatch(answer.text, /secret/, row.name)
  }
})
