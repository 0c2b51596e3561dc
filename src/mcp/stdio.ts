import type { Readable, Writable } from 'node:stream'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { SteeredMock } from './admin-caller.js'
import { createMcpServer } from './mcp-server.js'

/** The streams the protocol goes over: a process's stdin and stdout. */
export interface StdioStreams {
  stdin: Readable
  stdout: Writable
}

/**
 * Serves MCP over these streams, with the SDK's stdio transport, until stdin ends; then closes the server and calls
 * `close` (the mock-nvr it started). Resolves with that stop, which a signal may call too: it runs once.
 */
export async function serveOnStdio ({ stdin, stdout }: StdioStreams, mock: SteeredMock, close: () => Promise<void>): Promise<() => Promise<void>> {
  const server = createMcpServer(mock)
  let stopped: Promise<void> | undefined
  const stop = async (): Promise<void> => {
    stopped ??= (async () => {
      await server.close()
      await close()
    })()
    await stopped
  }
  // A stop that fails has nothing left to tell: the client that would read it is gone.
  stdin.once('end', () => { stop().catch(() => {}) })
  await server.connect(new StdioServerTransport(stdin, stdout))
  return stop
}
