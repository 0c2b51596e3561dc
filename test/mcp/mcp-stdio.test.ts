import { spawn } from 'node:child_process'
import { once } from 'node:events'
import t from 'tap'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { CLI_UNDER_TEST } from '../helpers/cli-process.js'
import { untracked } from '../helpers/untracked.js'
import { AUTH } from '../helpers/app.js'

// The process itself: the CLI bundle as npm run build makes it, spoken to over its stdin and stdout.

function json (result: unknown): any {
  const text = ((result as CallToolResult).content[0] as { text: string }).text
  return text === 'done' ? null : JSON.parse(text)
}

t.test('the SDK\'s stdio client starts mock-nvr mcp with a fleet, puts a device offline, walks a reboot, and SIGTERM stops it', async t => {
  const [command, args] = untracked(process.execPath, [CLI_UNDER_TEST, 'mcp', '--devices', '2', '--port', '0', '--clock', 'manual'])
  const transport = new StdioClientTransport({ command, args, env: process.env as Record<string, string>, stderr: 'pipe' })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
  const client = new Client({ name: 'test', version: '1.0.0' })
  await client.connect(transport)
  type Listed = { name: string, url: string, cameras: string[] }
  const { devices } = json(await client.callTool({ name: 'devices' })) as { devices: [Listed, Listed] }
  const [first, second] = devices
  // A camera of the bundled fixtures, which every device serves.
  const LIST = `/nvr/v1/cameras/${first.cameras[0] as string}/counting_lines`
  t.match(json(await client.callTool({ name: 'setHealth', arguments: { device: second.name, state: 'offline' } })), { state: 'offline', listening: false })
  await t.rejects(fetch(`${second.url}${LIST}`, { headers: AUTH }), { cause: { code: 'ECONNREFUSED' } })
  t.match(json(await client.callTool({ name: 'setHealth', arguments: { device: first.name, state: 'rebooting', down: 100, starting: 100 } })), { phase: 'down' })
  await client.callTool({ name: 'advanceClock', arguments: { advance: 200 } })
  t.equal((await fetch(`${first.url}${LIST}`, { headers: AUTH })).status, 200, 'rebooted once the clock moved on')
  t.match(json(await client.callTool({ name: 'requests', arguments: { device: '*' } })), { requests: [{ device: first.name, url: LIST, status: 200 }], total: 1 })
  t.match(stderr, /mock-nvr mcp: serving http:\/\/127\.0\.0\.1:\d+ \(a fleet of 2\); MCP on stdin\/stdout/, 'its lines on stderr')
  t.match(stderr, /GET \/__admin\/devices\/nvr-002\/health|PUT \/__admin\/devices\/nvr-002\/health 200/, 'its logs on stderr')

  const pid = transport.pid as number
  const closed = new Promise<void>(resolve => { transport.onclose = resolve })
  process.kill(pid, 'SIGTERM')
  await closed
  t.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, 'the process is gone')
})

t.test('mock-nvr mcp stops when its client closes stdin, having written nothing but the protocol to stdout', async t => {
  const [command, args] = untracked(process.execPath, [CLI_UNDER_TEST, 'mcp', '--port', '0'])
  const child = spawn(command, args)
  let stdout = ''
  let stderr = ''
  const buffer = new ReadBuffer()
  const messages: JSONRPCMessage[] = []
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
  const answered = new Promise<void>(resolve => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      buffer.append(chunk)
      for (let message = buffer.readMessage(); message !== null; message = buffer.readMessage()) messages.push(message)
      if (messages.length === 2) resolve()
    })
  })
  const exit = once(child, 'exit')
  child.stdin.write(serializeMessage({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }))
  child.stdin.write(serializeMessage({ jsonrpc: '2.0', method: 'notifications/initialized' }))
  child.stdin.write(serializeMessage({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'health', arguments: {} } }))
  await answered
  child.stdin.end()
  const [code] = await exit
  t.equal(code, 0)
  t.match(messages, [{ id: 1, result: { serverInfo: { name: 'mock-nvr' } } }, { id: 2, result: { content: [{ type: 'text', text: /"state": "online"/ }] } }])
  t.equal(stdout.trim().split('\n').length, 2, 'two lines on stdout: the two answers')
  t.match(stderr, /admin API on at \/__admin\//)
})

t.test('the SDK is loaded by the MCP endpoint\'s first request or the mcp command, not by a start', async t => {
  const { readFile, readdir } = await import('node:fs/promises')
  const { dirname, join } = await import('node:path')
  const folder = dirname(CLI_UNDER_TEST)
  // The files a module of the bundle loads with it: its static imports, and theirs.
  const closure = async (file: string, seen = new Set<string>()): Promise<Set<string>> => {
    if (seen.has(file)) return seen
    seen.add(file)
    const text = await readFile(file, 'utf8')
    for (const [, path] of text.matchAll(/^import [^;]*?from ?["'](\.[^"']+)["']/gm)) await closure(join(dirname(file), path as string), seen)
    return seen
  }
  const chunks = await readdir(join(folder, 'cli-chunks'))
  const mount = chunks.find(name => /^mount-[\w-]+\.js$/.test(name)) as string
  for (const entry of [CLI_UNDER_TEST, join(folder, 'cli-chunks', mount)]) {
    const loaded = await closure(entry)
    t.ok(loaded.size > 1, `${entry} has imports of its own`)
    for (const file of loaded) t.notMatch(await readFile(file, 'utf8'), '@modelcontextprotocol/sdk', `${file} loads no SDK`)
  }
  const endpoint = chunks.find(name => /^http-endpoint-[\w-]+\.js$/.test(name)) as string
  t.match(await readFile(join(folder, 'cli-chunks', endpoint), 'utf8'), '@modelcontextprotocol/sdk', 'the endpoint\'s chunk does')
})
