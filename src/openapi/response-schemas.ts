import { Type } from '@sinclair/typebox'
import { ErrorEnvelopeSchema } from '../contract/schemas.js'
import { LIST_OPERATION, READ_METHODS_HEADER, type OperationRow } from '../contract/paths.js'

const header = (description: string) => Type.String({ description })

/**
 * Every error an operation under /nvr/v1 can answer with, for the route schemas and so the OpenAPI
 * document. The error handler sends the envelope as text, so these schemas document rather than shape it.
 */
const errorResponses = {
  400: Type.Ref(ErrorEnvelopeSchema, { description: 'The path holds malformed percent-encoding' }),
  401: Type.Ref(ErrorEnvelopeSchema, {
    description: 'No bearer token, a malformed one, or one not accepted; checked before anything else',
    headers: { 'WWW-Authenticate': header('Bearer realm="mock-nvr", with error="invalid_request" or error="invalid_token" when a token was sent') }
  }),
  403: Type.Ref(ErrorEnvelopeSchema, { description: 'A scoped token (--scoped-token) asking for a camera outside its scope, whether that camera exists or not' }),
  404: Type.Ref(ErrorEnvelopeSchema, { description: 'No such camera, or no such counting line in that camera' }),
  405: Type.Ref(ErrorEnvelopeSchema, {
    description: 'Another method than GET or HEAD on this path (a plain OPTIONS too; a CORS preflight is answered)',
    headers: { Allow: header(READ_METHODS_HEADER) }
  }),
  429: Type.Ref(ErrorEnvelopeSchema, {
    description: 'More requests than --rate-limit allows this token (back off exponentially), or a fault injected on purpose',
    headers: { 'Retry-After': header('Whole seconds, at least 1, until the token may send a request again (an injected fault sets its own)') }
  }),
  431: Type.Ref(ErrorEnvelopeSchema, { description: 'Request line and headers are larger than --max-header-size; the connection closes' }),
  500: Type.Ref(ErrorEnvelopeSchema, { description: 'A fault injected on purpose: an internal error' }),
  503: Type.Ref(ErrorEnvelopeSchema, {
    description: 'A fault injected on purpose: the device is unavailable',
    headers: { 'Retry-After': header('Seconds to wait, when the fault sets it') }
  })
}

/** /healthz needs no token and takes no parameters: only the header limit can refuse it. */
export const healthErrorResponses = { 431: errorResponses[431] }

/** The answers of an operation: its row's success schema, and every error. */
export function responsesOf (row: OperationRow) {
  const description = row === LIST_OPERATION
    ? 'The counting lines of the camera, in fixture order; an empty array for a camera without lines'
    : 'The counting line'
  return { 200: Type.Ref(row.successSchema, { description }), ...errorResponses }
}
