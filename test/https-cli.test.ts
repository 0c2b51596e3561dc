import { join } from 'node:path'
import t from 'tap'
import { runCli } from './cli-process.js'
import { httpsGet } from './tls-helper.js'

t.test('with --tls-self-signed the ready line says https and SIGTERM still stops it cleanly', async t => {
  const run = runCli(['--port', '0', '--log-level', 'silent', '--tls-self-signed'])
  const url = await run.ready
  t.match(url, /^https:\/\/127\.0\.0\.1:\d+$/)
  // The CLI does not hand out its generated certificate, so this client skips verification, as curl -k does.
  const answer = await httpsGet(`${url}/healthz`, undefined, {}, false)
  t.equal(answer.statusCode, 200)
  run.child.kill('SIGTERM')
  t.equal(await run.exit, 0)
})

t.test('a missing certificate file stops the start with exit code 1 and names the file', async t => {
  const missing = join(t.testdirName, 'missing.pem')
  const run = runCli(['--port', '0', '--tls-cert', missing, '--tls-key', missing])
  t.equal(await run.exit, 1)
  t.equal(run.stderr(), `mock-nvr: cannot start: TLS certificate file ${missing}: no such file or folder\n`)
})

t.test('a certificate without its key is a usage error with exit code 2', async t => {
  const run = runCli(['--port', '0'], { MOCK_NVR_TLS_CERT: 'cert.pem' })
  t.equal(await run.exit, 2)
  t.equal(run.stderr(), 'mock-nvr: tlsCert (--tls-cert) and tlsKey (--tls-key) go together: give both or neither\n')
})
