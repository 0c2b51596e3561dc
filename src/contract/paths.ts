import type { TSchema } from '@sinclair/typebox'
import { CameraParamsSchema, CountingLineEnvelopeSchema, CountingLineListEnvelopeSchema, CountingLineParamsSchema } from './schemas.js'

/** Where the device API lives. */
export const API_PREFIX = '/nvr/v1'
/** Where the admin API lives: outside /nvr/v1, so it can never be mistaken for the device's API. */
export const ADMIN_PREFIX = '/__admin'

/** The methods the device API answers; any other on its paths is a 405 with this Allow. */
export const READ_METHODS: readonly string[] = ['GET', 'HEAD']
/** READ_METHODS as the Allow and Access-Control-Allow-Methods headers write them. */
export const READ_METHODS_HEADER = READ_METHODS.join(', ')

/** The two operations of the device API, as a fault's `route` names them. */
export type OperationName = 'list' | 'retrieve'

/** One operation of the device API: what the router, the fast path, fault scoping and the OpenAPI document read. */
export interface OperationRow {
  /** The name a fault's `route` scope gives it. */
  name: OperationName
  operationId: string
  summary: string
  /** The OpenAPI document's longer description of the operation. */
  description: string
  /** The router's pattern below API_PREFIX; `:name` is a path parameter. */
  path: string
  methods: readonly string[]
  /** The path parameters, in path order. */
  params: readonly string[]
  paramsSchema: TSchema
  successSchema: TSchema
}

export const LIST_OPERATION: OperationRow = {
  name: 'list',
  operationId: 'listCountingLines',
  summary: 'List the counting lines of a camera',
  description: 'Every counting line of the camera, in fixture order; an empty list for a camera known without lines.',
  path: '/cameras/:id/counting_lines',
  methods: READ_METHODS,
  params: ['id'],
  paramsSchema: CameraParamsSchema,
  successSchema: CountingLineListEnvelopeSchema
}

export const RETRIEVE_OPERATION: OperationRow = {
  name: 'retrieve',
  operationId: 'retrieveCountingLine',
  summary: 'Retrieve one counting line of a camera',
  description: 'One counting line, looked up by its id within the camera: line ids are unique per camera only.',
  path: '/cameras/:id/counting_lines/:line_id',
  methods: READ_METHODS,
  params: ['id', 'line_id'],
  paramsSchema: CountingLineParamsSchema,
  successSchema: CountingLineEnvelopeSchema
}

export const OPERATIONS: readonly OperationRow[] = [LIST_OPERATION, RETRIEVE_OPERATION]

// Each row's path as segments, split once.
const PATTERNS = OPERATIONS.map(row => [row, row.path.slice(1).split('/')] as const)

/** A row's path as the OpenAPI document writes it, prefix included: /nvr/v1/cameras/{id}/counting_lines. */
export function openApiPath ({ path }: OperationRow): string {
  return `${API_PREFIX}${path.replace(/:(\w+)/g, '{$1}')}`
}

/** Whether a URL as sent is the prefix or below it, as the router, which ignores a trailing slash, routes it. */
export function isUnder (url: string, prefix: string): boolean {
  if (!url.startsWith(prefix)) return false
  const next = url.charAt(prefix.length)
  return next === '' || next === '/' || next === '?'
}

/** A segment decoded, or undefined to refuse the match. */
export type SegmentDecoder = (segment: string) => string | undefined

/** The operation whose path a URL below API_PREFIX has, and its parameters. */
export interface OperationMatch {
  row: OperationRow
  params: Record<string, string>
}

/**
 * Matches a URL as sent (prefix included) against the rows as the router does: the query is left out, one
 * trailing slash is ignored, and each segment is decoded on its own, so an encoded '/' stays inside its
 * segment. Undefined when no row matches or `decode` refuses a segment.
 */
export function matchOperation (url: string, decode: SegmentDecoder): OperationMatch | undefined {
  if (!isUnder(url, API_PREFIX)) return undefined
  const segments = pathOf(url).slice(API_PREFIX.length + 1).split('/')
  for (const [row, pattern] of PATTERNS) {
    if (pattern.length !== segments.length) continue
    const params: Record<string, string> = {}
    let matched = true
    for (let index = 0; index < pattern.length && matched; index++) {
      const decoded = decode(segments[index] as string)
      const expected = pattern[index] as string
      if (decoded === undefined) matched = false
      else if (expected.startsWith(':')) params[expected.slice(1)] = decoded
      else matched = decoded === expected
    }
    if (matched) return { row, params }
  }
  return undefined
}

/**
 * The operation at a URL and its parameters, each segment percent-decoded as the router decodes it: the one reader
 * of a path's parameters for the pipeline, whoever received the request (Fastify, a port refusing before it, MSW).
 * Undefined when no operation is there or a segment is malformed. The fast path reads plain segments only.
 */
export function readOperation (url: string): OperationMatch | undefined {
  return matchOperation(url, decodedSegment)
}

function decodedSegment (segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

/** The path of a URL as sent: no query or fragment, and one trailing slash ignored. */
export function pathOf (url: string): string {
  const end = url.search(/[?#]/)
  const path = end === -1 ? url : url.slice(0, end)
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
}

/** Whether the path of a URL holds malformed percent-encoding, which the router refuses with a 400. */
export function hasMalformedEncoding (url: string): boolean {
  try {
    decodeURIComponent(pathOf(url))
    return false
  } catch {
    return true
  }
}
