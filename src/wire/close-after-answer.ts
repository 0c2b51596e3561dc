import type { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

// Node keeps the response being written on a connection as `_httpMessage`, as client-errors.ts reads it too.
export type HttpSocket = Socket & { _httpMessage?: ServerResponse | null }

/**
 * Closes a connection once the answer under way on it is sent: it says Connection: close if its headers are
 * not sent yet. Returns false, touching nothing, when no answer is under way.
 */
export function closeAfterAnswer (socket: Socket): boolean {
  const response = (socket as HttpSocket)._httpMessage
  if (response === null || response === undefined) return false
  response.shouldKeepAlive = false
  response.once('finish', () => socket.end(() => socket.destroy()))
  return true
}
