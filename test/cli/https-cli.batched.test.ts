import t from 'tap'
import { runCli } from '../helpers/cli-process.js'
import { httpsGet } from '../helpers/tls.js'

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
