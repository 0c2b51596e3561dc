import { createServer } from 'node:http'
import { driftedList, driftOf } from './drift.js'

// Stands in for `npx mock-nvr` in the Playwright recipe's negative runs: a server written by hand that drifted
// from the contract (see drift.ts). It takes the recipe's flags, is healthy, and takes faults, which it ignores.
const drift = driftOf(process.env.DRIFT)
const port = Number(process.argv[process.argv.indexOf('--port') + 1])
const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'authorization' }

const server = createServer((request, response) => {
  const list = /^\/nvr\/v1\/cameras\/([^/]+)\/counting_lines$/.exec(request.url ?? '')
  if (request.method === 'OPTIONS') response.writeHead(204, cors).end()
  else if (request.url === '/healthz') response.writeHead(200).end('{"status":"ok"}')
  else if (request.url === '/__admin/faults') response.writeHead(request.method === 'POST' ? 201 : 204).end()
  else if (list !== null) response.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify(driftedList(drift, decodeURIComponent(list[1] as string))))
  else response.writeHead(404).end()
})
server.listen(port, '127.0.0.1')
