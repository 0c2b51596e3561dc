import t, { type Test } from 'tap'
import { ADMIN, ADMIN_TOKEN, buildControlled } from '../helpers/control.js'
import { AUTH } from '../helpers/app.js'
import { exchange } from '../helpers/raw-http.js'

const LIST = '/nvr/v1/cameras/cam-1/counting_lines'

/** Sends one HEAD request and returns the status, after checking that nothing but headers came back. */
async function head (t: Test, port: number, path: string, headers: Record<string, string> = {}, version = 'HTTP/1.1', host = true): Promise<number> {
  const lines = [`HEAD ${path} ${version}`, ...(host ? ['Host: a'] : []), ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)]
  const received = (await exchange(port, `${lines.join('\r\n')}\r\n\r\n`)).received.toString('latin1')
  const end = received.indexOf('\r\n\r\n')
  t.equal(end + 4, received.length, `HEAD ${path}: headers alone`)
  return Number(received.slice(9, 12))
}

t.test('every answer to HEAD is headers alone, on every path and every refusal', async t => {
  const { app, control } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = (app.server.address() as { port: number }).port

  t.equal(await head(t, port, '/healthz'), 200)
  // The OpenAPI document is made, and the API page loaded, by its first request, which, answered later, a client
  // that half-closes does not get (as with --latency): these clients do, so both are asked for first.
  await app.inject('/openapi.json')
  t.equal(await head(t, port, '/openapi.json'), 200)
  // The API page's own answers (a redirect to its folder, its files, a 404) are the plugin's: only the headers count.
  await app.inject('/docs')
  for (const path of ['/docs', '/docs/static/index.html', '/docs/nothing-here']) await head(t, port, path)
  t.equal(await head(t, port, '/'), 302)
  t.equal(await head(t, port, '/elsewhere'), 404)
  t.equal(await head(t, port, LIST, AUTH), 200)
  t.equal(await head(t, port, LIST), 401)
  t.equal(await head(t, port, '/nvr/v1/cameras/nope/counting_lines', AUTH), 404)
  t.equal(await head(t, port, '/nvr/v1/unknown', AUTH), 404)
  t.equal(await head(t, port, '/nvr/v1/cameras/%zz/counting_lines', AUTH), 400)
  t.equal(await head(t, port, LIST, AUTH, 'HTTP/1.1', false), 400)
  t.equal(await head(t, port, '/nvr/v1/x?\xff', AUTH), 400)
  t.equal(await head(t, port, '/__admin/requests', ADMIN), 200)
  t.equal(await head(t, port, '/__admin/requests'), 401)
  t.equal(await head(t, port, '/__admin/reset', ADMIN), 405)

  control.injectFault({ status: 503, times: 1 })
  t.equal(await head(t, port, LIST, AUTH), 503)
  control.injectFault({ malformed: true, times: 1 })
  t.equal(await head(t, port, LIST, AUTH), 200)
})

t.test('through inject too, where no HTTP server drops a body, a HEAD refusal is headers alone with the GET\'s length', async t => {
  const { app } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  const cases: Array<[string, Record<string, string>, number]> = [
    ['/elsewhere', {}, 404],
    ['/nvr/v1/unknown', AUTH, 404],
    ['/nvr/v1/unknown', {}, 401],
    ['/__admin/unknown', ADMIN, 404],
    ['/nvr/v1/cameras/%zz/counting_lines', AUTH, 400],
    [LIST, {}, 401]
  ]
  for (const [url, headers, status] of cases) {
    const get = await app.inject({ method: 'GET', url, headers })
    const head = await app.inject({ method: 'HEAD', url, headers })
    t.equal(head.statusCode, status, url)
    t.equal(head.body, '', `${url}: no body`)
    t.equal(head.headers['content-length'], String(get.rawPayload.length), `${url}: the length of the GET's body`)
  }
})
