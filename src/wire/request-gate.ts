import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * Takes a request before anything else of the device sees it: writes an answer, holds the connection, or
 * calls `proceed` later to let it go on after all (a slow device), and returns true; or returns false to let it
 * go on now. Where a device's state (rebooting, unreachable, slow) stops requests.
 */
export type RequestGate = (request: IncomingMessage, response: ServerResponse, proceed: () => void) => boolean
