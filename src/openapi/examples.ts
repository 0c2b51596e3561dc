import { type ApiError, apiErrors, toApiError } from '../wire/errors.js'
import { LIST_OPERATION, openApiPath, READ_METHODS, RETRIEVE_OPERATION } from '../contract/paths.js'
import { errorEnvelope, successEnvelope } from '../contract/envelope.js'
import type { ServedCamera, ServedData } from '../data/data-store.js'

/** The OpenAPI document as JSON: only the parts given examples are looked into. */
export type OpenApiDocument = Record<string, unknown>

interface Example { summary: string, value: unknown }
interface Media { examples?: Record<string, Example> }
interface Operation {
  parameters: Array<{ name: string, example?: unknown }>
  responses: Record<string, { content: Record<string, Media> }>
}

export const HEALTH_PATH = '/healthz'
export const LIST_PATH = openApiPath(LIST_OPERATION)
export const LINE_PATH = openApiPath(RETRIEVE_OPERATION)
/** A list example shows the first few lines only: generated data can hold thousands per camera. */
const LISTED_LINES = 3
const UNKNOWN_ID = 'unknown'

// The examples are the envelopes as they go on the wire, read back.
const example = (summary: string, error: ApiError): Example => ({ summary, value: JSON.parse(errorEnvelope(error)) })
const success = (content: unknown): unknown => JSON.parse(successEnvelope(content))
const injected = (status: number) => example('An injected fault', apiErrors.injected(status, `This request failed on purpose: an injected ${status} fault.`))

// The messages come from the error catalogue, so the examples cannot drift from the wire.
const ERROR_EXAMPLES: Record<string, Record<string, Example>> = {
  400: { malformedPath: example('Malformed percent-encoding in the path', apiErrors.badUrl()) },
  401: {
    noToken: example('No Authorization header, or another scheme', apiErrors.unauthorized('no_credentials')),
    malformedHeader: example('"Bearer" with no token or extra words', apiErrors.unauthorized('invalid_request')),
    tokenRefused: example('A token that is not accepted', apiErrors.unauthorized('invalid_token'))
  },
  405: { otherMethod: example('A POST on this path', apiErrors.methodNotAllowed('POST', READ_METHODS)) },
  429: {
    rateLimited: example('More requests than --rate-limit allows this token', apiErrors.rateLimited(1)),
    injected: injected(429)
  },
  431: { tooLarge: example('Headers over --max-header-size', toApiError({ statusCode: 431 })) },
  500: { injected: injected(500) },
  503: { injected: injected(503) }
}

/**
 * A copy of the document with examples from the data being served: the counts of /healthz, the camera of the
 * first line (or the first camera when there are no lines) and that line, as path parameters and as the success
 * answers.
 */
export function withExamples (document: OpenApiDocument, { firstLine, cameras, lineCount }: ServedData): OpenApiDocument {
  const copy = structuredClone(document)
  const paths = copy.paths as Record<string, { get: Operation }>
  const cameraId = firstLine?.camera_id ?? cameras.keys().next().value
  const health = (paths[HEALTH_PATH] as { get: Operation }).get
  jsonMedia(health, '431').examples = ERROR_EXAMPLES[431]
  // The answer of the mock itself: contractViolations, an optional field of the schema, is a proxy's alone.
  setSuccessExample(health, 'The counts of the data served now', { status: 'ok', cameras: cameras.size, countingLines: lineCount })
  // A proxy documents what it answers itself: /nvr/v1 is the target's.
  if (paths[LIST_PATH] === undefined) return copy
  const list = (paths[LIST_PATH] as { get: Operation }).get
  const retrieve = (paths[LINE_PATH] as { get: Operation }).get

  const forbidden = { outsideScope: example('A camera outside the scoped token\'s scope, known or not', apiErrors.cameraForbidden(cameraId ?? UNKNOWN_ID)) }
  addErrorExamples(list, forbidden, { unknownCamera: example('No such camera', apiErrors.cameraNotFound(UNKNOWN_ID)) })
  addErrorExamples(retrieve, forbidden, {
    unknownCamera: example('No such camera', apiErrors.cameraNotFound(UNKNOWN_ID)),
    unknownLine: example('No such line in that camera', apiErrors.countingLineNotFound(cameraId ?? UNKNOWN_ID, UNKNOWN_ID))
  })
  if (cameraId === undefined) return copy

  const camera = cameras.get(cameraId) as ServedCamera
  const count = camera.lineCount
  const shown = count > LISTED_LINES ? `the first ${LISTED_LINES} of ${count} lines` : `${count} line${count === 1 ? '' : 's'}`
  setParameterExample(list, 'id', cameraId)
  setSuccessExample(list, `Camera ${cameraId}: ${shown}`, success(camera.firstLines(LISTED_LINES)))
  if (firstLine === undefined) return copy

  setParameterExample(retrieve, 'id', cameraId)
  setParameterExample(retrieve, 'line_id', firstLine.id)
  setSuccessExample(retrieve, `Line ${firstLine.id} of camera ${cameraId}`, success(firstLine))
  return copy
}

// Every status has a response in both operations (see api-responses.ts), so each lookup finds one.
function jsonMedia (operation: Operation, status: string): Media {
  return (operation.responses[status] as { content: Record<string, Media> }).content['application/json'] as Media
}

function addErrorExamples (operation: Operation, forbidden: Record<string, Example>, notFound: Record<string, Example>): void {
  for (const [status, examples] of Object.entries({ ...ERROR_EXAMPLES, 403: forbidden, 404: notFound })) {
    jsonMedia(operation, status).examples = examples
  }
}

function setParameterExample (operation: Operation, name: string, value: string): void {
  (operation.parameters.find(candidate => candidate.name === name) as { example?: unknown }).example = value
}

function setSuccessExample (operation: Operation, summary: string, value: unknown): void {
  jsonMedia(operation, '200').examples = { servedData: { summary, value } }
}
