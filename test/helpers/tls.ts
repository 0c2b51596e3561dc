import { request } from 'node:https'
import { generate } from 'selfsigned'

/** A certificate and key for localhost and 127.0.0.1, as a user would bring them; the key encrypted with a passphrase if one is given. */
export async function makeCertificate (passphrase?: string): Promise<{ cert: string, key: string }> {
  const { cert, private: key } = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ...(passphrase === undefined ? {} : { passphrase }),
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }]
  })
  return { cert, key }
}

export interface HttpsAnswer {
  statusCode: number
  body: string
}

/** A GET over a real TLS connection that trusts only `ca`, so the certificate is verified for the URL's host (unless `verify` is false). */
export function httpsGet (url: string, ca: string | undefined, headers: Record<string, string> = {}, verify = true): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    request(url, { ca, headers, rejectUnauthorized: verify }, response => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ statusCode: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
    }).on('error', reject).end()
  })
}
