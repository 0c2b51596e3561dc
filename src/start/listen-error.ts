import { ListenError } from '../errors/errors.js'
/** The host's name does not resolve: a problem of the host given, not of the machine. */
export const UNRESOLVED_HOST_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN'])

/** A listen error of a known kind as a ListenError; any other error as it is. */
export function describeListenError (error: unknown, host: string, port: number): unknown {
  const { code, address } = error as NodeJS.ErrnoException & { address?: string }
  const where = address ?? host
  if (code === 'EADDRINUSE') return new ListenError(code, `port ${port} on ${where} is already in use`)
  if (code === 'EADDRNOTAVAIL') return new ListenError(code, `${where} is not an address of this machine`)
  if (code === 'EACCES') return new ListenError(code, `port ${port} on ${where} needs privileges this process lacks (ports below 1024 do on most systems)`)
  if (UNRESOLVED_HOST_CODES.has(code as string)) return new ListenError(code as string, `cannot resolve host ${host}`)
  return error
}
