import type { IncomingMessage, ServerResponse } from 'node:http'
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib'
import type { Test } from 'tap'
import type { FixtureData } from '../../src/contract/schemas.js'
import { mockLikeTarget, startFakeTarget } from './fake-target.js'

/** How the reverse proxy in front of the target changes its answers on the way out. */
export interface ReverseProxy {
  /** Content-Encoding applied to every body, whatever the client accepts; 'deflate-raw' is deflate without its zlib wrapper. */
  encoding?: 'gzip' | 'deflate' | 'deflate-raw' | 'br'
  /** Sent in pieces with Transfer-Encoding: chunked instead of a Content-Length. */
  chunked?: boolean
  /** The target answers only under this path, e.g. /api/device; anything else is the proxy's HTML 404. */
  basePath?: string
  /** Members added to every JSON envelope: at the top, and in result. */
  extraMembers?: { top?: Record<string, unknown>, result?: Record<string, unknown> }
  /** Put a byte-order mark before every body. */
  bom?: boolean
  /** Replaces the Content-Type of every answer. */
  contentType?: string
  /** TLS credentials to serve with. */
  tls?: { cert: string, key: string }
}

const ENCODERS = {
  gzip: gzipSync,
  deflate: deflateSync,
  'deflate-raw': deflateRawSync,
  br: brotliCompressSync
} as const

/**
 * mock-nvr on this data and token behind a reverse proxy that changes its transport and envelope as `proxy`
 * says: a target as a real deployment serves it. `seen` holds each request the proxy took, as it came.
 */
export async function proxiedTarget (t: Test, data: FixtureData, token: string, proxy: ReverseProxy) {
  const inner = await mockLikeTarget(t, data, token)
  const outer = await startFakeTarget(t, (request, response) => {
    const url = request.url as string
    const base = proxy.basePath ?? ''
    if (!url.startsWith(`${base}/`)) {
      response.writeHead(404, { 'content-type': 'text/html' })
      response.end('<html><body>404 Not Found</body></html>')
      return
    }
    forward(inner.url, request, url.slice(base.length)).then(answer => rewrite(answer, proxy, response), () => response.destroy())
  }, proxy.tls)
  return { url: `${outer.url}${proxy.basePath ?? ''}`, seen: outer.requests, targetRequests: inner.requests }
}

async function forward (target: string, request: IncomingMessage, path: string): Promise<{ status: number, headers: Record<string, string>, body: Buffer }> {
  const hopByHop = new Set(['host', 'accept-encoding', 'connection', 'content-length', 'transfer-encoding'])
  const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !hopByHop.has(name))) as Record<string, string>
  const response = await fetch(`${target}${path}`, { method: request.method as string, headers, redirect: 'manual' })
  const kept: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    if (!['content-length', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) kept[name] = value
  })
  return { status: response.status, headers: kept, body: Buffer.from(await response.arrayBuffer()) }
}

function rewrite ({ status, headers, body }: { status: number, headers: Record<string, string>, body: Buffer }, proxy: ReverseProxy, response: ServerResponse): void {
  let text = body.toString('utf8')
  if (proxy.extraMembers !== undefined && text.startsWith('{')) {
    const envelope = JSON.parse(text) as { result: Record<string, unknown> }
    text = JSON.stringify({ ...envelope, ...proxy.extraMembers.top, result: { ...envelope.result, ...proxy.extraMembers.result } })
  }
  if (proxy.bom === true && text !== '') text = `\ufeff${text}`
  let bytes = Buffer.from(text)
  const out: Record<string, string> = { ...headers, ...(proxy.contentType === undefined ? {} : { 'content-type': proxy.contentType }) }
  if (proxy.encoding !== undefined && bytes.length > 0) {
    bytes = ENCODERS[proxy.encoding](bytes)
    out['content-encoding'] = proxy.encoding === 'deflate-raw' ? 'deflate' : proxy.encoding
  }
  if (proxy.chunked !== true) {
    response.writeHead(status, { ...out, 'content-length': String(bytes.length) })
    response.end(bytes)
    return
  }
  response.writeHead(status, out)
  // Three pieces, each its own chunk on the wire.
  const third = Math.ceil(bytes.length / 3)
  for (let start = 0; start < bytes.length; start += third) response.write(bytes.subarray(start, start + third))
  response.end()
}
