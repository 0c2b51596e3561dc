import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

// A frontend as a developer would write it: fetch the lines with a bearer token and show the outcome.
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>frontend</title></head>
<body><pre id="outcome"></pre>
<script>
  const query = new URLSearchParams(location.search)
  const headers = query.has('token') ? { authorization: 'Bearer ' + query.get('token') } : {}
  const show = (kind, value) => {
    document.querySelector('#outcome').textContent = JSON.stringify(value)
    document.body.dataset.outcome = kind
  }
  fetch(query.get('api'), { headers })
    .then(response => response.json().then(body => show('answered', { status: response.status, body })))
    .catch(error => show('rejected', { error: String(error) }))
</script></body></html>`

export interface Frontend {
  /** The page's origin, e.g. http://127.0.0.1:40123: another port than the mock's, so another origin. */
  origin: string
  close: () => Promise<void>
}

/** Serves the page on its own 127.0.0.1 port. */
export async function startFrontend (): Promise<Frontend> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections()
      server.close()
      await once(server, 'close')
    }
  }
}
