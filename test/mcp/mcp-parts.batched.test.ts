import t from 'tap'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { startMockNvr } from '../../src/start/start-mock-nvr.js'
import { callTool } from '../../src/mcp/mcp-server.js'
import { listResources, readResource } from '../../src/mcp/resources.js'
import { fetchCaller } from '../../src/mcp/admin-caller.js'
import { ownOrigins } from '../../src/mcp/http-endpoint.js'
import { VERB_TABLE, type VerbRow } from '../../src/mcp/verb-table.js'

// The MCP server's parts, where the SDK's client cannot reach: a mock-nvr that answers oddly, the Origin list.

const TOKEN = 'admin-secret'

function textOf (result: unknown): string {
  return ((result as CallToolResult).content[0] as { text: string }).text
}

t.test('a tool whose mock-nvr fails without a reason, or answers without an envelope, is a tool error all the same', async t => {
  const row = VERB_TABLE.find(candidate => candidate.name === 'health') as typeof VERB_TABLE[number]
  const thrown = await callTool({ fleet: false, call: async () => { throw new Error('socket hang up') } }, row, {})
  t.match(JSON.parse(textOf(thrown)), { errorCode: 'MOCK_NVR_UNREACHABLE', errorMessage: 'mock-nvr did not answer: socket hang up.' })
  await t.rejects(readResource({ fleet: false, call: async () => ({ status: 502, body: 'Bad Gateway' }) }, 'mock-nvr://requests'), { message: /mock-nvr answered 502\./ })
  const bare = await callTool({ fleet: false, call: async () => ({ status: 502, body: 'Bad Gateway' }) }, row, {})
  t.match(JSON.parse(textOf(bare)), { httpCode: 502, errorCode: 'UNEXPECTED_ANSWER' })
})

t.test('an answer that is not JSON is given as its text', async t => {
  const nvr = await startMockNvr({ port: 0, logLevel: 'silent', adminToken: TOKEN })
  t.teardown(nvr.close)
  const page = await fetchCaller(nvr.url, TOKEN)('GET', '/__admin/ui/')
  t.match(page, { status: 200, body: /^<!doctype html>/i })
  t.match(await fetchCaller(`${nvr.url}/`, undefined)('GET', '/__admin/health'), { status: 401 }, 'no token, no admin answer')
})

t.test('the origins the MCP endpoint takes: a loopback name or the address the request came to, with its port', async t => {
  const origins = (localAddress: string | undefined, localPort: number | undefined, protocol = 'http') =>
    ownOrigins({ socket: { localAddress, localPort }, protocol } as unknown as Parameters<typeof ownOrigins>[0])
  t.strictSame(origins('127.0.0.1', 8080), ['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080', 'http://127.0.0.1:8080'])
  t.strictSame(origins('::ffff:10.0.0.5', 8443, 'https').at(-1), 'https://10.0.0.5:8443', 'an IPv4 address as IPv6 maps it')
  t.strictSame(origins('fe80::1', 80).at(-1), 'http://[fe80::1]:80')
  t.strictSame(origins(undefined, undefined), ['http://localhost', 'http://127.0.0.1', 'http://[::1]'], 'no socket address: inject()')
})

t.test('the tools that read the journal or the devices take a page: their limit, since and after go in the query', async t => {
  const called: string[] = []
  const mock = { fleet: true, call: async (_method: string, path: string) => { called.push(path); return { status: 200, body: { content: { requests: [] } } } } }
  const rowOf = (name: string) => VERB_TABLE.find(row => row.name === name) as VerbRow
  await callTool(mock, rowOf('requests'), { device: '*', limit: 2, since: '1700000000000_0_3' })
  await callTool(mock, rowOf('requests'), { device: 'nvr-001', since: '2026-11-28T00:00:00Z' })
  await callTool(mock, rowOf('requests'), { device: 'nvr-001' })
  await callTool(mock, rowOf('devices'), { limit: 500, after: 'nvr 1' })
  t.strictSame(called, ['/__admin/requests?limit=2&since=1700000000000_0_3', '/__admin/devices/nvr-001/requests?since=2026-11-28T00%3A00%3A00Z', '/__admin/devices/nvr-001/requests', '/__admin/devices?limit=500&after=nvr%201'])
  const refused = await callTool(mock, rowOf('devices'), { limit: 0 })
  t.equal(refused.isError, true)
  t.match(JSON.parse((refused.content[0] as { text: string }).text), { errorCode: 'INVALID_BODY', problems: [{ path: '/limit' }] })
  t.equal(called.length, 4, 'refused before any call')
})

t.test('a fleet\'s resources list every device, page after page of the admin API\'s list', async t => {
  const pages: Record<string, unknown> = {
    '/__admin/devices': { devices: [{ name: 'a', cameras: [] }], next: 'a' },
    '/__admin/devices?after=a': { devices: [{ name: 'b c', cameras: ['cam-1'] }], next: null }
  }
  const resources = await listResources({ fleet: true, call: async (_method, path) => ({ status: 200, body: { content: pages[path] } }) })
  t.strictSame(resources.filter(resource => resource.name.endsWith('journal') && resource.name !== 'journal').map(resource => resource.name), ['a journal', 'b c journal'])
})
