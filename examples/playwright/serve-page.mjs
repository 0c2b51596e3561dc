// A stand-in for a frontend dev server: one page that lists a camera's counting lines from mock-nvr.
import { createServer } from 'node:http'

const [port, nvrPort] = process.argv.slice(2)
const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Counting lines</title></head>
<body><h1>Lobby</h1><p id="status">Loading…</p><ul id="lines"></ul>
<script>
  const token = new URLSearchParams(location.search).get('token') ?? 'demo-token'
  fetch('http://127.0.0.1:${nvrPort}/nvr/v1/cameras/cam-security-exit/counting_lines', { headers: { authorization: 'Bearer ' + token } })
    .then(async response => {
      const status = document.querySelector('#status')
      if (response.status === 401) { status.textContent = 'Your session has expired. Please sign in again.'; return }
      if (!response.ok) {
        const retry = response.headers.get('retry-after')
        status.textContent = 'The recorder is unavailable' + (retry === null ? '.' : ', retrying in ' + retry + ' s.')
        return
      }
      const { content } = await response.json()
      status.textContent = content.length + ' counting lines'
      document.querySelector('#lines').replaceChildren(...content.map(line => Object.assign(document.createElement('li'), { textContent: line.name })))
    })
    .catch(() => { document.querySelector('#status').textContent = 'The recorder cannot be reached.' })
</script></body></html>`

createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page)
}).listen(Number(port), '127.0.0.1')
