import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { isIP } from 'node:net'
import { hostname } from 'node:os'
import { describeFsError } from '../data/fixtures.js'
import type { ResolvedOptions } from './options-schema.js'
import { isWildcardHost } from '../util/listen-address.js'
import { TlsError } from '../errors/errors.js'

/** The PEM text that Fastify's `https` option takes. */
export interface TlsCredentials {
  /** The certificate, possibly followed by its chain. */
  cert: string
  key: string
}

/** What HTTPS is served with, and where it came from. */
export interface ServedTls extends TlsCredentials {
  selfSigned: boolean
  /** The DNS names and IP addresses the certificate is valid for. */
  names: string[]
}

export type TlsOptions = Pick<ResolvedOptions, 'host' | 'tlsCert' | 'tlsKey' | 'tlsSelfSigned'>

/** The certificate and key to serve HTTPS with, or undefined for plain HTTP. */
export async function loadTls ({ host, tlsCert, tlsKey, tlsSelfSigned }: TlsOptions): Promise<ServedTls | undefined> {
  // resolveOptions has made sure the certificate and key come together, and never with tlsSelfSigned.
  if (tlsCert !== undefined && tlsKey !== undefined) return readUserCredentials(tlsCert, tlsKey)
  if (tlsSelfSigned) return generateSelfSigned(host)
  return undefined
}

async function readUserCredentials (certFile: string, keyFile: string): Promise<ServedTls> {
  const cert = await readTlsFile('certificate', certFile)
  const key = await readTlsFile('key', keyFile)
  let certificate: X509Certificate
  try {
    certificate = new X509Certificate(cert)
  } catch {
    throw new TlsError(`TLS certificate file ${certFile}: holds no PEM certificate (-----BEGIN CERTIFICATE-----)`)
  }
  let privateKey: KeyObject
  try {
    privateKey = createPrivateKey(key)
  } catch {
    // PKCS#8 says BEGIN ENCRYPTED PRIVATE KEY, the older PEM form Proc-Type: 4,ENCRYPTED.
    const encrypted = key.includes('ENCRYPTED')
    throw new TlsError(`TLS key file ${keyFile}: ${encrypted ? 'the key is encrypted; give it without a passphrase' : 'holds no PEM private key (-----BEGIN PRIVATE KEY-----)'}`)
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new TlsError(`TLS key file ${keyFile}: this key does not belong to the certificate in ${certFile}`)
  }
  return { cert, key, selfSigned: false, names: certificateNames(certificate) }
}

async function readTlsFile (kind: 'certificate' | 'key', file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    throw new TlsError(`TLS ${kind} file ${file}: ${describeFsError(error)}`)
  }
}

// subjectAltName reads like "DNS:localhost, IP Address:127.0.0.1".
function certificateNames (certificate: X509Certificate): string[] {
  return (certificate.subjectAltName ?? '').split(', ').map(entry => entry.slice(entry.indexOf(':') + 1)).filter(name => name !== '')
}

const VALIDITY_DAYS = 365
const DAY_MS = 86_400_000

/** The names a self-signed certificate covers: loopback, this machine's name, and the listening host. */
export function selfSignedNames (host: string): string[] {
  const names = ['localhost', '127.0.0.1', '::1', hostname()]
  if (!isWildcardHost(host)) names.push(host)
  return [...new Set(names)]
}

async function generateSelfSigned (host: string): Promise<ServedTls> {
  // Loaded only when asked for: importing the certificate library costs about as much as Fastify itself.
  /* c8 ignore next: tsx wraps each import() in a CommonJS interop check that an ES module never takes */
  const { generate } = await import('selfsigned')
  const names = selfSignedNames(host)
  // Backdated a minute, so a client whose clock is slightly behind still accepts it.
  const notBeforeDate = new Date(Date.now() - 60_000)
  const { cert, private: key } = await generate([{ name: 'commonName', value: 'localhost' }], {
    // An EC key is generated in milliseconds, where RSA takes up to a second.
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate: new Date(notBeforeDate.getTime() + VALIDITY_DAYS * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: names.map(name => isIP(name) === 0 ? { type: 2, value: name } : { type: 7, ip: name }) }
    ]
  })
  return { cert, key, selfSigned: true, names }
}
