/** The content type of every answer of the device and admin APIs. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

/** How a success envelope begins, up to its content: the served bodies are this, the content, and '}'. */
export const SUCCESS_PREFIX = '{"result":{"success":true,"httpCode":200},"content":'

/** A success envelope as it goes on the wire; httpCode always equals the status. */
export function successEnvelope (content: unknown, statusCode = 200): string {
  return JSON.stringify({ result: { success: true, httpCode: statusCode }, content })
}

/** A success envelope around content already serialized as JSON. */
export function successEnvelopeOf (contentJson: string): string {
  return `${SUCCESS_PREFIX}${contentJson}}`
}

/** What an error envelope says: the status, the catalogue's code (contract/error-codes.ts) and one human sentence. */
export interface EnvelopeError {
  statusCode: number
  code: string
  message: string
}

/** The error envelope as it goes on the wire, in the device's own member names; httpCode always equals the status. */
export function errorEnvelope ({ statusCode, code, message }: EnvelopeError): string {
  return JSON.stringify({ result: { success: false, httpCode: statusCode, errorCode: code, errorMessage: message }, content: null })
}

/** The content of a success envelope read back from its bytes or text. */
export function contentOf<T> (envelope: string): T {
  return (JSON.parse(envelope) as { content: T }).content
}
