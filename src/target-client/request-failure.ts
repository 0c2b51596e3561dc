import { TargetLinkError, NoAnswerError } from '../errors/errors.js'

const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ENOTFOUND: 'the host name is not known',
  EAI_AGAIN: 'the host name could not be looked up',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached'
}

// What each certificate check that failed means, in words; any other *CERT* code is named as it is.
const CERTIFICATE_PROBLEMS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'is signed by a CA that is not trusted here',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'is signed by a CA that is not trusted here',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'is signed by a CA that is not trusted here',
  CERT_HAS_EXPIRED: 'has expired',
  CERT_NOT_YET_VALID: 'is not valid yet'
}

const TRUST_ADVICE = 'pass --ca FILE with its certificate (or its CA\'s), or --insecure to skip the check'

interface TlsNameError extends NodeJS.ErrnoException {
  host?: string
  cert?: { subjectaltname?: string, subject?: { CN?: string } }
}

/** A failed request in one line; these messages hold no header, so no token can leak through them. */
export function describeFailure (error: Error, https: boolean): NoAnswerError {
  const code = (error as NodeJS.ErrnoException).code ?? ''
  const unreachable = UNREACHABLE[code]
  if (unreachable !== undefined) return new NoAnswerError(`cannot connect to the target: ${unreachable} (${code})`, true)
  if (https && code === 'ERR_TLS_CERT_ALTNAME_INVALID') return new NoAnswerError(describeNameMismatch(error as TlsNameError), true)
  if (https && (code.includes('CERT') || code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE')) {
    return new NoAnswerError(`the target's certificate is not trusted: it ${CERTIFICATE_PROBLEMS[code] ?? `fails the check (${code})`}: ${TRUST_ADVICE}`, true)
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return new NoAnswerError('cannot connect to the target: the connection was not made in time', true)
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') return new NoAnswerError('the target closed the connection before answering in full')
  if (code === 'EPROTO' || code.startsWith('ERR_SSL')) return new NoAnswerError(`the TLS handshake failed (${code}): is the target http:// rather than https://?`, true)
  const detail = code === '' ? error.message : code
  if (code.startsWith('HPE_') || error.name === 'HTTPParserError') return new NoAnswerError(`the answer is not valid HTTP (${detail}): is the target https:// rather than http://?`)
  return new NoAnswerError(`the request failed (${detail})`)
}

/** A certificate for other names than the target's host: which names it holds, and the three ways out. */
function describeNameMismatch (error: TlsNameError): string {
  const names = (error.cert?.subjectaltname ?? '').split(', ').map(entry => entry.slice(entry.indexOf(':') + 1)).filter(name => name !== '')
  const held = names.length > 0 ? names : [error.cert?.subject?.CN].filter(name => name !== undefined)
  const holds = held.length === 0 ? 'names no host' : `is for ${held.join(', ')}`
  return `the target's certificate ${holds}, not ${error.host ?? 'the target URL\'s host'}: give --target with a name it holds` +
    ' (and --ca FILE if it is not trusted here), or --insecure to skip the check'
}

/** The one-line error a whole run ends with when the target cannot be reached. */
export function unreachableError (error: NoAnswerError, target: string): TargetLinkError {
  return new TargetLinkError(`${target}: ${error.message}`)
}
