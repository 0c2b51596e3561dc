import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { startMockNvr } from '../../src/start/start-mock-nvr.js'
import { AUTH, SAMPLE_DATA } from '../helpers/app.js'
import { httpsGet, makeCertificate } from '../helpers/tls.js'

const LIST_PATH = '/nvr/v1/cameras/cam-1/counting_lines'

t.test('a self-signed certificate serves the list route over a verified TLS connection', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA, tlsSelfSigned: true })
  t.teardown(() => nvr.close())
  t.match(nvr.url, /^https:\/\/127\.0\.0\.1:\d+$/)
  t.match(nvr.certificate, /^-----BEGIN CERTIFICATE-----/)

  const answer = await httpsGet(`${nvr.url}${LIST_PATH}`, nvr.certificate, AUTH)
  t.equal(answer.statusCode, 200)
  t.strictSame(JSON.parse(answer.body).content, SAMPLE_DATA.counting_lines?.slice(0, 2))

  const byName = await httpsGet(`https://localhost:${nvr.port}/healthz`, nvr.certificate)
  t.equal(byName.statusCode, 200, 'the certificate is valid for localhost too')
})

t.test('the API keeps its rules over HTTPS: no token is still a 401 in the envelope', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA, tlsSelfSigned: true, tokens: ['secret'] })
  t.teardown(() => nvr.close())
  const answer = await httpsGet(`${nvr.url}${LIST_PATH}`, nvr.certificate)
  t.equal(answer.statusCode, 401)
  t.equal(JSON.parse(answer.body).result.httpCode, 401)
})

t.test('the user\'s certificate and key files serve HTTPS', async t => {
  const { cert, key } = await makeCertificate()
  const dir = t.testdir()
  await writeFile(join(dir, 'cert.pem'), cert)
  await writeFile(join(dir, 'key.pem'), key)
  const nvr = await startMockNvr({ data: SAMPLE_DATA, tlsCert: join(dir, 'cert.pem'), tlsKey: join(dir, 'key.pem') })
  t.teardown(() => nvr.close())
  t.match(nvr.url, /^https:\/\//)
  t.equal(nvr.certificate, cert)
  const answer = await httpsGet(`${nvr.url}${LIST_PATH}`, cert, AUTH)
  t.equal(answer.statusCode, 200)
})

t.test('a client that does not trust the certificate is refused by TLS, not served', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA, tlsSelfSigned: true })
  t.teardown(() => nvr.close())
  const other = await makeCertificate()
  await t.rejects(httpsGet(`${nvr.url}/healthz`, other.cert))
})

t.test('without TLS options the mock serves plain HTTP', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA })
  t.teardown(() => nvr.close())
  t.match(nvr.url, /^http:\/\//)
  t.equal(nvr.certificate, undefined)
})

t.test('the header size limit holds over HTTPS too', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA, tlsSelfSigned: true, maxHeaderSize: 8192 })
  t.teardown(() => nvr.close())
  const answer = await httpsGet(`${nvr.url}/healthz`, nvr.certificate, { 'x-filler': 'x'.repeat(10_000) })
  t.equal(answer.statusCode, 431)
  t.equal(JSON.parse(answer.body).result.httpCode, 431)
})
