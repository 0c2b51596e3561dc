import { randomBytes } from 'node:crypto'
import { listPath, linePath } from '../target-client/target-connection.js'

/** A request for a case the spec leaves open, as sent to the target and to mock-nvr alike. */
export interface Probe {
  /** What the case is, e.g. 'wrong token'. */
  case: string
  method: string
  path: string
  /** The request's headers; `authorization` is added with the real token unless the case sets it (or null to send none). */
  headers: Record<string, string | null>
}

/** What the probes are built from: the data just read from the target. */
export interface ProbeData {
  /** A camera that answered its list. */
  camera: string
  /** A line of another camera, whose id this camera does not use, if there is one. */
  foreignLine?: string
}

const ORIGIN = 'http://localhost:5173'

function randomId (prefix: string): string {
  return `${prefix}-${randomBytes(6).toString('hex')}`
}

/**
 * Every case of the spec's "not shown" that verify compares. Ids and the wrong token are random, made
 * afresh on every run and never derived from the real token.
 */
export function buildProbes ({ camera, foreignLine }: ProbeData): Probe[] {
  const list = listPath(camera)
  const wrongToken = randomBytes(18).toString('base64url')
  const basic = Buffer.from(`verify:${randomBytes(9).toString('hex')}`).toString('base64')
  const unknownCamera = randomId('no-such-camera')
  const probes: Probe[] = [
    { case: 'no Authorization header', method: 'GET', path: list, headers: { authorization: null } },
    { case: 'another scheme (Basic)', method: 'GET', path: list, headers: { authorization: `Basic ${basic}` } },
    { case: 'empty bearer token', method: 'GET', path: list, headers: { authorization: 'Bearer' } },
    { case: 'wrong token', method: 'GET', path: list, headers: { authorization: `Bearer ${wrongToken}` } },
    { case: 'unknown camera, list', method: 'GET', path: listPath(unknownCamera), headers: {} },
    { case: 'unknown camera, retrieve', method: 'GET', path: linePath(unknownCamera, randomId('no-such-line')), headers: {} },
    { case: 'unknown line', method: 'GET', path: linePath(camera, randomId('no-such-line')), headers: {} },
    ...(foreignLine === undefined ? [] : [{ case: 'line id of another camera', method: 'GET', path: linePath(camera, foreignLine), headers: {} }]),
    ...['POST', 'PUT', 'DELETE'].map(method => ({ case: `${method} on the list`, method, path: list, headers: {} })),
    { case: 'plain OPTIONS', method: 'OPTIONS', path: list, headers: {} },
    {
      case: 'CORS preflight',
      method: 'OPTIONS',
      path: list,
      headers: { authorization: null, origin: ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' }
    },
    { case: 'HEAD', method: 'HEAD', path: list, headers: {} },
    { case: 'trailing slash', method: 'GET', path: `${list}/`, headers: {} },
    { case: 'query string', method: 'GET', path: `${list}?limit=1&offset=0`, headers: {} },
    { case: 'malformed percent-encoding', method: 'GET', path: `${list.slice(0, list.lastIndexOf('/cameras/'))}/cameras/%E0%A4%A/counting_lines`, headers: {} }
  ]
  return probes
}

/** The headers to send for a probe: the real token unless the case replaces or removes it. */
export function probeHeaders (probe: Probe, token: string): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` }
  for (const [name, value] of Object.entries(probe.headers)) {
    if (value === null) delete headers[name]
    else headers[name] = value
  }
  return headers
}
