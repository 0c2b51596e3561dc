import { SECRETS } from './hostile-requests.js'

/** What was sent, as far as the contract cares. */
export interface SentRequest {
  method: string
  path: string
  headers: Record<string, string>
  /** The Authorization header holds a token the server accepts. */
  accepted: boolean
  /** The Authorization header holds the admin token. */
  admin?: boolean
  /** The contract promises a 200 to an accepted GET or HEAD here. */
  found: boolean
}

/** What came back. */
export interface Answer {
  status: number
  headers: Record<string, string | string[] | number | undefined>
  body: string
}

/** Answers the contract documents outside the envelope: the path (query removed) and the statuses it may have. */
export const PLAIN_ANSWERS: Array<{ path: RegExp, statuses: number[] }> = [
  { path: /^\/healthz\/?$/, statuses: [200] },
  { path: /^\/openapi\.json\/?$/, statuses: [200] },
  // The root leads to the API page; the page, its assets and its copies of the document are not the API.
  { path: /^\/\/?$/, statuses: [302] },
  { path: /^\/docs(\/.*)?$/s, statuses: [200, 302] }
]

/** What an answer must never show: a stack frame, a source location, this machine's paths. */
const INTERNALS = [process.cwd(), 'node_modules', '.ts:', '.js:', '    at ', 'FST_', 'ERR_']

const JSON_TYPE = 'application/json; charset=utf-8'

/** Throws, naming the broken rule, unless the answer is one the contract allows for this request. */
export function checkAnswer (sent: SentRequest, answer: Answer): void {
  const { status, headers, body } = answer
  const fail = (rule: string) => { throw new Error(`${rule}: ${sent.method} ${sent.path.slice(0, 200)} got ${status} ${body.slice(0, 300)}`) }
  const pathOnly = sent.path.replace(/[?#].*$/s, '')
  const plain = PLAIN_ANSWERS.some(answer => answer.path.test(pathOnly) && answer.statuses.includes(status))
  const underAdmin = pathOnly === '/__admin' || pathOnly.startsWith('/__admin/')
  const success = status === 200 || (underAdmin && status === 201)
  if (!plain && !(success || status === 204 || (status >= 400 && status < 500))) fail('only 200, 204 and 4xx are answered')

  const seen = `${JSON.stringify(headers)}\n${body}`
  for (const secret of SECRETS) if (seen.includes(secret)) fail('a token is echoed')
  const asSent = `${sent.path}\n${safeDecode(sent.path)}`
  for (const internal of INTERNALS) if (body.includes(internal) && !asSent.includes(internal)) fail(`an internal detail (${internal}) shows`)
  if (({} as Record<string, unknown>).polluted !== undefined) fail('the prototype of every object was polluted')

  const underApi = pathOnly === '/nvr/v1' || pathOnly.startsWith('/nvr/v1/')
  const preflight = sent.method === 'OPTIONS' && sent.headers.origin !== undefined && sent.headers['access-control-request-method'] !== undefined
  const protocolRefusal = headers['access-control-allow-origin'] === undefined
  if (status === 204) {
    if (!preflight) fail('204 answers only a CORS preflight')
    if (body !== '') fail('a preflight answer has no body')
    return
  }
  if (underApi && !preflight && !protocolRefusal) {
    if (!sent.accepted && status !== 401) fail('under /nvr/v1 a request without an accepted token gets 401')
    if (sent.accepted && status === 401) fail('an accepted token is refused')
  }
  if (underAdmin && !preflight && !protocolRefusal && sent.admin !== true && status !== 401) fail('under /__admin a request without the admin token gets 401')
  if (sent.found && sent.accepted && !preflight && (sent.method === 'GET' || sent.method === 'HEAD') && status !== 200) fail('a known line or camera is not found')
  if (status === 401 && headers['www-authenticate'] === undefined) fail('a 401 has no WWW-Authenticate')
  if (status === 405 && !underAdmin && headers.allow !== 'GET, HEAD') fail('a 405 has no Allow: GET, HEAD')
  if (status === 405 && underAdmin && typeof headers.allow !== 'string') fail('a 405 has no Allow')
  if (sent.method === 'HEAD') {
    if (body !== '') fail('HEAD is answered with a body')
    return
  }
  if (plain) return
  checkEnvelope(status, headers, body, fail)
}

function checkEnvelope (status: number, headers: Answer['headers'], body: string, fail: (rule: string) => never): void {
  if (headers['content-type'] !== JSON_TYPE) fail(`the content type is ${String(headers['content-type'])}`)
  let envelope: { result?: Record<string, unknown>, content?: unknown }
  try {
    envelope = JSON.parse(body)
  } catch {
    return fail('the body is not JSON')
  }
  const { result, content } = envelope
  if (Object.keys(envelope).join() !== 'result,content' || result === undefined) fail('the body is not the envelope')
  if (result?.httpCode !== status) fail('result.httpCode differs from the status')
  if (status < 300) {
    if (Object.keys(result ?? {}).join() !== 'success,httpCode' || result?.success !== true) fail('a success is not the success envelope')
    return
  }
  if (Object.keys(result ?? {}).join() !== 'success,httpCode,errorCode,errorMessage' || result?.success !== false) fail('a 4xx is not the error envelope')
  if (typeof result?.errorCode !== 'string' || !/^[A-Z][A-Z_]*$/.test(result.errorCode)) fail('an error has no errorCode from the catalogue')
  if (typeof result?.errorMessage !== 'string' || result.errorMessage === '') fail('an error has no errorMessage')
  if (content !== null) fail('an error has content')
}

function safeDecode (path: string): string {
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}
