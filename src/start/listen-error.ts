import { ListenError } from '../errors/errors.js'

/** A fleet's control address that cannot listen, said to be the control address, with the option that chose its port. */
export function describeControlListenError (error: unknown, host: string, port: number): unknown {
  const described = describeListenError(error, host, port)
  if (!(described instanceof ListenError)) return described
  return new ListenError(described.systemCode, `the control address (the fleet's admin API and dashboard): ${described.problem}`, 'controlPort')
}

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
