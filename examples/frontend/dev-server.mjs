// A stand-in for a frontend dev server (`npm run dev -- --host H --port P`, as vite takes them): one page that lists
// the security exit camera's counting lines from the mock at VITE_NVR_URL.
import { createServer } from 'node:http'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: { host: { type: 'string', default: '127.0.0.1' }, port: { type: 'string', default: '5173' } } })
const nvr = process.env.VITE_NVR_URL ?? 'http://localhost:8080'
const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Counting lines</title></head>
<body><h1>Security exit</h1><p id="status">Loading…</p><ul id="lines"></ul>
<script>
  fetch(${JSON.stringify(`${nvr}/nvr/v1/cameras/cam-security-exit/counting_lines`)}, { headers: { authorization: 'Bearer demo-token' } })
    .then(response => response.json())
    .then(({ result, content }) => {
      document.querySelector('#status').textContent = result.success ? content.length + ' counting lines' : result.errorMessage
      document.querySelector('#lines').replaceChildren(...(content ?? []).map(line => Object.assign(document.createElement('li'), { textContent: line.name })))
    })
    .catch(() => { document.querySelector('#status').textContent = 'The recorder cannot be reached.' })
</script></body></html>`

createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page)
}).listen(Number(values.port), values.host, () => console.log(`frontend on http://localhost:${values.port}`))
