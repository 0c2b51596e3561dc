import { once } from 'node:events'
import { createServer, type AddressInfo } from 'node:net'
import { PassThrough, type Readable, type Writable } from 'node:stream'
import t, { type Test } from 'tap'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { runCommandLine } from '../../src/cli/main.js'
import { startMockNvr } from '../../src/start/start-mock-nvr.js'
import { startMockFleet } from '../../src/fleet/start-mock-fleet.js'
import { MCP_HELP } from '../../src/cli/mcp-command.js'
import { rowsFor } from '../../src/mcp/verb-table.js'
import { runCommand } from '../helpers/cli-process.js'
import { AUTH } from '../helpers/app.js'

const TOKEN = 'admin-secret'
const LIST = '/nvr/v1/cameras/cam-1/counting_lines'

/** The client's end of a pair of pipes: the SDK's own framing of stdio (one JSON-RPC message a line), in this process. */
class PipeTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void
  onclose?: () => void
  onerror?: (error: Error) => void
  readonly #buffer = new ReadBuffer()
  constructor (private readonly from: Readable, private readonly to: Writable) {}
  async start (): Promise<void> {
    this.from.on('data', (chunk: Buffer) => {
      this.#buffer.append(chunk)
      for (let message = this.#buffer.readMessage(); message !== null; message = this.#buffer.readMessage()) this.onmessage?.(message)
    })
  }

  async send (message: JSONRPCMessage): Promise<void> {
    this.to.write(serializeMessage(message))
  }

  async close (): Promise<void> {
    this.to.end()
    this.onclose?.()
  }
}

interface McpRun {
  code: number | undefined
  client: Client
  stdout: () => string
  stderr: () => string
  /** The stop io.serving was given: resolves once the mock-nvr it started is closed. */
  stopped: () => Promise<void>
}

/** Runs `mock-nvr mcp …` in this process, as src/cli.ts would, with an SDK client on its stdin and stdout. */
async function runMcp (t: Test, args: string[], env: Record<string, string> = {}): Promise<McpRun> {
  const stdin = new PassThrough()
  const stdout = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', (chunk: Buffer) => { out += chunk.toString() })
  let close: (() => Promise<void>) | undefined
  const code = await runCommandLine(['mcp', ...args], {
    env,
    stdin,
    stdout,
    stderr: { write: (text: string) => { err += text } },
    stopSignal: () => new AbortController().signal,
    serving: nvr => { close = nvr.close }
  })
  const client = new Client({ name: 'test', version: '1.0.0' })
  if (code === undefined) await client.connect(new PipeTransport(stdout, stdin))
  const stopped = async () => await close?.()
  t.teardown(async () => {
    await client.close()
    await stopped()
  })
  return { code, client, stdout: () => out, stderr: () => err, stopped }
}

function textOf (result: unknown): string {
  return ((result as CallToolResult).content[0] as { text: string }).text
}

t.test('mcp starts a mock-nvr with serving\'s flags and steers it over stdio; stdout holds the protocol alone', async t => {
  const run = await runMcp(t, ['--port', '0', '--clock', 'manual', '--log-level', 'silent'])
  t.equal(run.code, undefined)
  const url = (/serving (http:\/\/\S+); MCP on stdin\/stdout\n$/.exec(run.stderr()) as RegExpExecArray)[1] as string
  const { tools } = await run.client.listTools()
  t.strictSame(tools.map(tool => tool.name).sort(), rowsFor(false).map(row => row.name).sort())
  t.match(JSON.parse(textOf(await run.client.callTool({ name: 'injectFault', arguments: { status: 500, times: 1 } }))), { id: 'fault-1' })
  t.equal((await fetch(`${url}${LIST}`, { headers: AUTH })).status, 500)
  t.match(JSON.parse(textOf(await run.client.callTool({ name: 'advanceClock', arguments: { advance: 5 } }))), { now: /^\d{4}-/ })
  for (const line of run.stdout().trim().split('\n')) t.match(JSON.parse(line), { jsonrpc: '2.0' }, 'a JSON-RPC message')
  // The client closes its end: the command stops, and its mock-nvr with it.
  await run.client.close()
  await run.stopped()
  await t.rejects(fetch(`${url}${LIST}`, { headers: { connection: 'close' } }), 'its port is closed')
})

t.test('mcp with --devices starts a fleet, whose tools name their device', async t => {
  const run = await runMcp(t, ['--devices', '2', '--port', '0', '--admin-token', TOKEN, '--log-level', 'silent'])
  t.match(run.stderr(), /mock-nvr fleet control on http:\/\/\S+\nmock-nvr mcp: serving http:\/\/\S+ \(a fleet of 2\); MCP on stdin\/stdout\n$/)
  const { tools } = await run.client.listTools()
  t.strictSame(tools.map(tool => tool.name).sort(), rowsFor(true).map(row => row.name).sort())
  t.match(JSON.parse(textOf(await run.client.callTool({ name: 'devices' }))), { devices: [{ name: 'nvr-001' }, { name: 'nvr-002' }] })
})

t.test('mcp --connect steers a mock-nvr that runs already, through its admin API', async t => {
  const nvr = await startMockNvr({ port: 0, logLevel: 'silent', adminToken: TOKEN })
  t.teardown(nvr.close)
  const run = await runMcp(t, ['--connect', nvr.url, '--admin-token', TOKEN])
  t.equal(run.stderr(), '')
  t.notOk((await run.client.listTools()).tools.some(tool => tool.name === 'devices'), 'a single mock-nvr')
  t.match(JSON.parse(textOf(await run.client.callTool({ name: 'injectFault', arguments: { status: 418 } }))), { id: 'fault-1' })
  t.equal((await fetch(`${nvr.url}${LIST}`, { headers: AUTH })).status, 418)
  t.match(JSON.parse(textOf(await run.client.callTool({ name: 'use', arguments: { cameras: 'x' } }))), { errorCode: 'INVALID_BODY', problems: [{ path: '/cameras' }] })
  t.match(JSON.parse(((await run.client.readResource({ uri: 'mock-nvr://openapi.json' })).contents[0] as { text: string }).text), { openapi: /^3\./ })
  await nvr.close()
  const gone = await run.client.callTool({ name: 'health' })
  t.ok(gone.isError)
  t.match(JSON.parse(textOf(gone)), { errorCode: 'MOCK_NVR_UNREACHABLE', errorMessage: /^mock-nvr did not answer: (ECONNREFUSED|UND_ERR_SOCKET)\.$/ })
})

t.test('mcp --connect finds a fleet at its control address, the token from its variable', async t => {
  const fleet = await startMockFleet({ count: 1, port: 0, logLevel: 'silent', adminToken: TOKEN })
  t.teardown(fleet.close)
  const run = await runMcp(t, ['--connect', `${fleet.controlUrl}/`], { MOCK_NVR_ADMIN_TOKEN: TOKEN })
  t.equal(textOf(await run.client.callTool({ name: 'reset', arguments: { device: '*' } })), 'done')
  t.match(JSON.parse(textOf(await run.client.callTool({ name: 'health', arguments: { device: 'nvr-001' } }))), { state: 'online' })
})

t.test('mcp refuses what it cannot do, with an exit code and the words of the other commands', async t => {
  const nvr = await startMockNvr({ port: 0, logLevel: 'silent', adminToken: TOKEN })
  t.teardown(nvr.close)
  t.strictSame(await runCommand(['mcp', '--help']), { code: 0, stdout: MCP_HELP, stderr: '' })
  t.match(await runCommand(['mcp', '--version']), { code: 0, stdout: /^\d+\.\d+\.\d+/ })
  t.strictSame(await runCommand(['mcp', '--connect', nvr.url, '--admin-token', 'wrong']), { code: 1, stdout: '', stderr: `mock-nvr: ${nvr.url}/ refused the admin token: give it with --admin-token or MOCK_NVR_ADMIN_TOKEN.\n` })
  t.strictSame(await runCommand(['mcp', '--connect', nvr.url, '--port', '80']), { code: 2, stdout: '', stderr: `mock-nvr: --port does not apply with --connect: the mock-nvr at ${nvr.url} runs already, with its own options. Run mock-nvr mcp --help for the flags.\n` })
  t.match(await runCommand(['mcp', '--connect', 'not a url']), { code: 2, stderr: /--connect must be an http or https URL such as http:\/\/127\.0\.0\.1:8080, not 'not a url'/ })
  t.match(await runCommand(['mcp', '--connect', 'ftp://127.0.0.1/']), { code: 2, stderr: /--connect must be an http or https URL/ })
  t.match(await runCommand(['mcp', 'serve']), { code: 2, stderr: "mock-nvr: unexpected argument 'serve'. Run mock-nvr mcp --help for the flags.\n" })
  t.match(await runCommand(['mcp', '--port', 'x', '--seed', 'y']), { code: 2, stderr: /^mock-nvr: --port .*\.\nmock-nvr: --seed .*\. Run mock-nvr mcp --help for the flags\.\n$/ })
  t.match(await runCommand(['mcp', '--fixtures', '/no/such/folder', '--port', '0']), { code: 1, stderr: /^mock-nvr: Invalid fixtures:\n.*no\/such\/folder/ })
  // A port nothing listens on, and no pooled connection of an earlier call reaches.
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  server.close()
  await once(server, 'close')
  t.strictSame(await runCommand(['mcp', '--connect', `http://127.0.0.1:${port}`]), { code: 1, stdout: '', stderr: `mock-nvr: could not reach http://127.0.0.1:${port}/: ECONNREFUSED.\n` })
})
