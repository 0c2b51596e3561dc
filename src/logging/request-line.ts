// What a request's log line holds, free of pino and node:, so the request recorder can run in a browser too.

/** The little of a logger that the request recorder uses: pino's, or any other. */
export interface RequestLog {
  error: (fields: object, message: string) => void
  isLevelEnabled?: (level: string) => boolean
}

/** Writes the line of a completed request: the very line `info(fields, 'request completed')` writes. */
export type RequestLineWriter = (reqId: string, method: string, url: string, statusCode: number, responseTime: number) => void

export const REQUEST_COMPLETED = 'request completed'

/** The level of a request line: info for a single mock-nvr, debug for a fleet's devices, which say what they did once a second. */
export type RequestLineLevel = 'info' | 'debug'

/** A request's time for its log line, to 0.01 ms: finer digits are timer noise that only lengthens the line. */
export function loggedMilliseconds (milliseconds: number): number {
  return Math.round(milliseconds * 100) / 100
}

// pino answers from the level it holds; a logger of another make that cannot say is asked to log anyway.
export function isLevelEnabled (log: object & { isLevelEnabled?: (level: string) => boolean }, level: RequestLineLevel): boolean {
  return log.isLevelEnabled?.(level) ?? true
}
