import type { IncomingHttpHeaders } from 'node:http'
import { promisify } from 'node:util'
import { brotliDecompress, gunzip, inflate, inflateRaw, type ZlibOptions } from 'node:zlib'
import { BodyDecodingError } from '../errors/errors.js'

type Decoder = (body: Buffer, options: ZlibOptions) => Promise<Buffer>

const gunzipAsync = promisify(gunzip) as Decoder
const inflateAsync = promisify(inflate) as Decoder
const inflateRawAsync = promisify(inflateRaw) as Decoder
const brotliAsync = promisify(brotliDecompress) as Decoder

// HTTP's "deflate" is zlib-wrapped, but some servers send raw deflate: a zlib header says which.
function isZlibWrapped (body: Buffer): boolean {
  const [first = 0, second = 0] = body
  return (first & 0x0f) === 8 && ((first << 8) | second) % 31 === 0
}

const DECODERS: Record<string, Decoder> = {
  gzip: gunzipAsync,
  'x-gzip': gunzipAsync,
  deflate: (body, options) => isZlibWrapped(body) ? inflateAsync(body, options) : inflateRawAsync(body, options),
  br: brotliAsync
}

/** The codings this client asks for in Accept-Encoding, and reads. */
export const ACCEPTED_ENCODINGS = 'gzip, deflate, br'

/**
 * The body as its sender meant it: every coding of Content-Encoding undone, last applied first. Each step
 * stops at maxBytes of output, so a small answer that inflates to gigabytes costs no more than maxBytes.
 */
export async function decodeBody (body: Buffer, contentEncoding: string, maxBytes: number): Promise<Buffer> {
  let decoded = body
  for (const coding of codingsOf(contentEncoding).reverse()) {
    const decoder = DECODERS[coding]
    if (decoder === undefined) throw new BodyDecodingError(`its Content-Encoding ${JSON.stringify(coding)} is not one this client reads (${ACCEPTED_ENCODINGS})`)
    if (decoded.length === 0) continue
    try {
      decoded = await decoder(decoded, { maxOutputLength: maxBytes })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new BodyDecodingError(`decoded (${coding})`, true)
      throw new BodyDecodingError(`its body is not valid ${coding} (${(error as Error).message})`)
    }
  }
  return decoded
}

/**
 * The headers that describe the decoded body: no Content-Encoding or Content-Length, and an ETag made weak once a
 * coding was undone. A strong ETag names the bytes sent; the decoded body is the same representation in other
 * bytes, which only a weak ETag may name (RFC 9110, 8.8.1), as a server weakens its own when it compresses.
 */
export function decodedHeaders (headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const { 'content-encoding': contentEncoding = '', 'content-length': _length, ...decoded } = headers
  const { etag } = decoded
  if (etag !== undefined && !etag.startsWith('W/') && codingsOf(contentEncoding).length > 0) decoded.etag = `W/${etag}`
  return decoded
}

/** The codings of a Content-Encoding in the order applied, identity left out. */
function codingsOf (contentEncoding: string): string[] {
  return contentEncoding.split(',').map(coding => coding.trim().toLowerCase()).filter(coding => coding !== '' && coding !== 'identity')
}
