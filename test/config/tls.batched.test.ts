import { X509Certificate } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { resolveOptions } from '../../src/config/options.js'
import { OptionsError } from '../../src/errors/errors.js'
import { startMockNvr } from '../../src/start/start-mock-nvr.js'
import { describeStartFailure } from '../../src/cli/start-failure.js'
import { loadTls, selfSignedNames } from '../../src/config/tls.js'
import { makeCertificate } from '../helpers/tls.js'
import { TlsError } from '../../src/errors/errors.js'

const HOST = '127.0.0.1'

t.test('without TLS options there is nothing to load: plain HTTP', async t => {
  t.equal(await loadTls({ host: HOST, tlsSelfSigned: false }), undefined)
})

t.test('a certificate without its key, or a key without its certificate, is a usage error', async t => {
  t.throws(() => resolveOptions({ tlsCert: 'cert.pem' }), new OptionsError('option tlsCert needs option tlsKey too: give both or neither'))
  t.throws(() => resolveOptions({ tlsKey: 'key.pem' }), new OptionsError('option tlsKey needs option tlsCert too: give both or neither'))
  await t.rejects(startMockNvr({ tlsKey: 'key.pem' }), OptionsError, 'startMockNvr refuses it before loading anything')
})

t.test('a self-signed certificate and certificate files together are a usage error', async t => {
  t.throws(() => resolveOptions({ tlsSelfSigned: true, tlsCert: 'cert.pem', tlsKey: 'key.pem' }), new OptionsError('option tlsSelfSigned cannot be combined with option tlsCert: choose one'))
  t.throws(() => resolveOptions({ tlsSelfSigned: true, tlsKey: 'key.pem' }), new OptionsError('option tlsSelfSigned cannot be combined with option tlsKey: choose one'))
})

t.test('a missing or unreadable file is named with the problem', async t => {
  const dir = t.testdir({ 'key.pem': 'x', folder: {} })
  const missing = loadTls({ host: HOST, tlsSelfSigned: false, tlsCert: join(dir, 'nope.pem'), tlsKey: join(dir, 'key.pem') })
  await t.rejects(missing, new TlsError(`TLS certificate file ${join(dir, 'nope.pem')}: no such file or folder`))
  t.equal(describeStartFailure(await missing.catch((error: unknown) => error)),
    `cannot start: TLS certificate file ${join(dir, 'nope.pem')}: no such file or folder`, 'what the CLI prints before exiting 1')
  const { cert } = await makeCertificate()
  await writeFile(join(dir, 'cert.pem'), cert)
  await t.rejects(loadTls({ host: HOST, tlsSelfSigned: false, tlsCert: join(dir, 'cert.pem'), tlsKey: join(dir, 'folder') }),
    new TlsError(`TLS key file ${join(dir, 'folder')}: cannot be read (EISDIR)`))
})

t.test('a file that holds no certificate or no key is named with the problem', async t => {
  const { cert, key } = await makeCertificate()
  const dir = t.testdir({ 'cert.pem': cert, 'key.pem': key, 'junk.pem': 'not a pem file\n' })
  await t.rejects(loadTls({ host: HOST, tlsSelfSigned: false, tlsCert: join(dir, 'junk.pem'), tlsKey: join(dir, 'key.pem') }),
    new TlsError(`TLS certificate file ${join(dir, 'junk.pem')}: holds no PEM certificate (-----BEGIN CERTIFICATE-----)`))
  await t.rejects(loadTls({ host: HOST, tlsSelfSigned: false, tlsCert: join(dir, 'cert.pem'), tlsKey: join(dir, 'junk.pem') }),
    new TlsError(`TLS key file ${join(dir, 'junk.pem')}: holds no PEM private key (-----BEGIN PRIVATE KEY-----)`))
  await t.rejects(loadTls({ host: HOST, tlsSelfSigned: false, tlsCert: join(dir, 'key.pem'), tlsKey: join(dir, 'cert.pem') }),
    /TLS certificate file .*key\.pem: holds no PEM certificate/, 'the two files swapped')
})

t.test('a key encrypted with a passphrase is refused with a hint', async t => {
  const { cert, key: encrypted } = await makeCertificate('a passphrase')
  const dir = t.testdir({ 'cert.pem': cert, 'key.pem': encrypted })
  await t.rejects(loadTls({ host: HOST, tlsSelfSigned: false, tlsCert: join(dir, 'cert.pem'), tlsKey: join(dir, 'key.pem') }),
    new TlsError(`TLS key file ${join(dir, 'key.pem')}: the key is encrypted; give it without a passphrase`))
})

t.test('a key that belongs to another certificate is refused', async t => {
  const first = await makeCertificate()
  const second = await makeCertificate()
  const dir = t.testdir({ 'cert.pem': first.cert, 'key.pem': second.key })
  await t.rejects(loadTls({ host: HOST, tlsSelfSigned: false, tlsCert: join(dir, 'cert.pem'), tlsKey: join(dir, 'key.pem') }),
    new TlsError(`TLS key file ${join(dir, 'key.pem')}: this key does not belong to the certificate in ${join(dir, 'cert.pem')}`))
})

t.test('valid files are served as they are, with the names the certificate covers', async t => {
  const { cert, key } = await makeCertificate()
  const dir = t.testdir({ 'cert.pem': cert, 'key.pem': key })
  const tls = await loadTls({ host: HOST, tlsSelfSigned: false, tlsCert: join(dir, 'cert.pem'), tlsKey: join(dir, 'key.pem') })
  t.strictSame(tls, { cert, key, selfSigned: false, names: ['localhost', '127.0.0.1'] })
})

t.test('a certificate without subject alternative names covers no name', async t => {
  const { generate } = await import('selfsigned')
  const { cert, private: key } = await generate([{ name: 'commonName', value: 'legacy' }], {
    keyType: 'ec', algorithm: 'sha256', extensions: [{ name: 'basicConstraints', cA: false }]
  })
  const dir = t.testdir({ 'cert.pem': cert, 'key.pem': key })
  const tls = await loadTls({ host: HOST, tlsSelfSigned: false, tlsCert: join(dir, 'cert.pem'), tlsKey: join(dir, 'key.pem') })
  t.strictSame(tls?.names, [])
})

t.test('the self-signed certificate covers loopback, this machine and the host, for about a year', async t => {
  const tls = await loadTls({ host: 'nvr.test', tlsSelfSigned: true })
  t.equal(tls?.selfSigned, true)
  t.strictSame(tls?.names, [...new Set(['localhost', '127.0.0.1', '::1', hostname(), 'nvr.test'])])
  const certificate = new X509Certificate(tls?.cert ?? '')
  for (const name of ['localhost', hostname(), 'nvr.test']) t.equal(certificate.checkHost(name), name, name)
  for (const ip of ['127.0.0.1', '::1']) t.equal(certificate.checkIP(ip), ip, ip)
  const days = (Date.parse(certificate.validTo) - Date.now()) / 86_400_000
  t.ok(days > 360 && days < 366, `valid for ${days.toFixed(1)} more days`)
  t.ok(Date.parse(certificate.validFrom) <= Date.now(), 'valid already')
})

t.test('a wildcard listening address is not a certificate name; a specific address is', async t => {
  t.notOk(selfSignedNames('0.0.0.0').includes('0.0.0.0'))
  t.notOk(selfSignedNames('::').includes('::'))
  t.ok(selfSignedNames('192.0.2.7').includes('192.0.2.7'))
  t.equal(selfSignedNames('localhost').filter(name => name === 'localhost').length, 1, 'no name twice')
})
