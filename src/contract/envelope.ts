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

/**
 * What an error envelope says: the status, the catalogue's code (errors/catalogue.ts), one human sentence, and for a
 * body with mistakes each JSON path and what is wrong there.
 */
export interface EnvelopeError {
  statusCode: number
  code: string
  message: string
  problems?: ReadonlyArray<{ path: string, message: string }> | undefined
}

/**
 * The error envelope as it goes on the wire, in the device's own member names; httpCode always equals the status.
 * `problems` follows errorMessage only where there are some, so a client reads them as data, not from the sentence.
 */
export function errorEnvelope ({ statusCode, code, message, problems }: EnvelopeError): string {
  const result = problems === undefined
    ? { success: false, httpCode: statusCode, errorCode: code, errorMessage: message }
    : { success: false, httpCode: statusCode, errorCode: code, errorMessage: message, problems }
  return JSON.stringify({ result, content: null })
}

/** The content of a success envelope read back from its bytes or text. */
export function contentOf<T> (envelope: string): T {
  return (JSON.parse(envelope) as { content: T }).content
}

/** A refusal as the device answers it, whatever writes it: its status, its headers as name, value… and the envelope. */
export interface ErrorAnswer {
  status: number
  headers: string[]
  body: string
}

/**
 * The one writer of a refusal: the error's status, the CORS headers given, the error's own headers (Retry-After,
 * WWW-Authenticate, Allow), the content type, and the envelope. Fastify's error handler, a port that refuses
 * before Fastify, a socket's parse error and the MSW handlers each send what this returns.
 */
export function errorAnswer (error: EnvelopeError & { readonly headers: Readonly<Record<string, string>> }, cors: readonly string[] = []): ErrorAnswer {
  const headers = [...cors]
  for (const name in error.headers) headers.push(name, error.headers[name] as string)
  headers.push('content-type', JSON_CONTENT_TYPE)
  return { status: error.statusCode, headers, body: errorEnvelope(error) }
}
