import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer, type Server } from 'node:net'
import { fileURLToPath } from 'node:url'
import t, { type Test } from 'tap'
import { healthUrl, probeHealth, runHealthcheck } from '../../src/cli/health-probe.js'
import { startMockNvr } from '../../src/start/start-mock-nvr.js'
import { SAMPLE_DATA } from '../helpers/app.js'
import { SOURCE_FLAGS } from '../helpers/cli-process.js'

const HEALTHCHECK = fileURLToPath(new URL('../../src/healthcheck.ts', import.meta.url))

t.test('the health URL follows the same environment variables as the CLI', async t => {
  t.equal(healthUrl({}).href, 'http://127.0.0.1:8080/healthz', 'the CLI defaults')
  t.equal(healthUrl({ MOCK_NVR_HOST: '0.0.0.0', MOCK_NVR_PORT: '9000' }).href, 'http://127.0.0.1:9000/healthz', 'every interface includes loopback')
  t.equal(healthUrl({ MOCK_NVR_HOST: '::' }).href, 'http://127.0.0.1:8080/healthz')
  t.equal(healthUrl({ MOCK_NVR_HOST: '::1' }).href, 'http://[::1]:8080/healthz')
  t.equal(healthUrl({ MOCK_NVR_HOST: 'nvr.internal' }).href, 'http://nvr.internal:8080/healthz')
  t.equal(healthUrl({ MOCK_NVR_TLS_SELF_SIGNED: 'true' }).href, 'https://127.0.0.1:8080/healthz')
  t.equal(healthUrl({ MOCK_NVR_TLS_SELF_SIGNED: '0' }).href, 'http://127.0.0.1:8080/healthz')
  t.equal(healthUrl({ MOCK_NVR_TLS_CERT: '/certs/cert.pem', MOCK_NVR_TLS_KEY: '/certs/key.pem' }).href, 'https://127.0.0.1:8080/healthz')
  t.throws(() => healthUrl({ MOCK_NVR_PORT: 'eighty' }), /MOCK_NVR_PORT must be a whole number/)
})

t.test('a running mock is healthy over HTTP and over HTTPS with a self-signed certificate', async t => {
  for (const tlsSelfSigned of [false, true]) {
    const nvr = await startMockNvr({ data: SAMPLE_DATA, tlsSelfSigned })
    t.teardown(() => nvr.close())
    t.equal(await probeHealth(new URL(`${nvr.url}/healthz`), 2_000), true, nvr.url)
    t.equal(await probeHealth(new URL(`${nvr.url}/nvr/v1/cameras/cam-1/counting_lines`), 2_000), false, 'any status but 200 is unhealthy')
  }
})

t.test('a port that drops every connection or a server that never answers is unhealthy', async t => {
  const port = await droppingPort(t)
  t.equal(await probeHealth(new URL(`http://127.0.0.1:${port}/healthz`), 2_000), false, 'every connection dropped')

  const silent = createServer(socket => { t.teardown(() => socket.destroy()) })
  silent.listen(0, '127.0.0.1')
  await once(silent, 'listening')
  t.teardown(() => silent.close())
  t.equal(await probeHealth(new URL(`http://127.0.0.1:${portOf(silent)}/healthz`), 50), false, 'silence until the time limit')
})

t.test('the healthcheck exits 0 for a healthy mock and 1 otherwise, saying why', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA })
  t.teardown(() => nvr.close())
  const written: string[] = []
  const stderr = { write: (text: string) => written.push(text) }
  t.equal(await runHealthcheck({ MOCK_NVR_PORT: String(nvr.port) }, stderr), 0)
  t.strictSame(written, [])

  const port = await droppingPort(t)
  t.equal(await runHealthcheck({ MOCK_NVR_PORT: String(port) }, stderr), 1)
  t.equal(await runHealthcheck({ MOCK_NVR_PORT: 'eighty' }, stderr), 1)
  t.strictSame(written, [
    `mock-nvr healthcheck: http://127.0.0.1:${port}/healthz did not answer 200\n`,
    'mock-nvr healthcheck: MOCK_NVR_PORT must be a whole number from 0 to 65535, not \'eighty\'\n'
  ])
})

t.test('the healthcheck command as the image runs it reports a healthy HTTPS mock with exit code 0', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA, tlsSelfSigned: true })
  t.teardown(() => nvr.close())
  const child = spawn(process.execPath, [...SOURCE_FLAGS, HEALTHCHECK], {
    env: { ...process.env, MOCK_NVR_PORT: String(nvr.port), MOCK_NVR_TLS_SELF_SIGNED: 'true' },
    stdio: 'ignore'
  })
  const [code] = await once(child, 'close') as [number | null]
  t.equal(code, 0)
})

/**
 * A port from the kernel, kept by the test till its end, where every connection is dropped at once: no answer, as
 * from a port nothing listens on, and no other program can take it meanwhile (a port closed again could be).
 */
async function droppingPort (t: Test): Promise<number> {
  const server = createServer(socket => socket.destroy()).listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.teardown(() => server.close())
  return portOf(server)
}

function portOf (server: Server): number {
  return (server.address() as { port: number }).port
}
