import { once } from 'node:events'
import { createServer } from 'node:net'
import t from 'tap'
import { ListenError, startMockNvr } from '../../src/index.js'
import { describeControlListenError, describeListenError } from '../../src/start/listen-error.js'
import { baseUrl } from '../../src/util/listen-address.js'
import { captureLogs } from '../helpers/log-capture.js'

t.test('the URL of a wildcard host is one a person can open; an IPv6 host is bracketed', async t => {
  t.equal(baseUrl('::1', 8080), 'http://[::1]:8080')
  t.equal(baseUrl('0.0.0.0', 80), 'http://127.0.0.1:80')
  t.equal(baseUrl('::', 8443, 'https'), 'https://127.0.0.1:8443')
  t.equal(baseUrl('nvr.local', 80), 'http://nvr.local:80')
})

t.test('Fastify\'s own "Server listening" lines are not logged; the level is the same after', async t => {
  const logs = captureLogs('trace')
  const nvr = await startMockNvr({ data: {}, logger: logs.logger })
  t.teardown(nvr.close)
  t.same(logs.records.filter(record => /listening/i.test(record.msg)), [], 'no line says listening')
  t.ok(logs.records.some(record => record.msg === 'serving counting lines'), 'the start-up lines are logged')
  t.equal(logs.logger.level, 'trace')
})

t.test('a port in use is refused in one sentence, as the CLI says it', async t => {
  const blocker = createServer().listen(0, '127.0.0.1')
  await once(blocker, 'listening')
  t.teardown(() => blocker.close())
  const { port } = blocker.address() as { port: number }
  const logs = captureLogs()
  const failed = startMockNvr({ port, data: {}, logger: logs.logger })
  await t.rejects(failed, new ListenError('EADDRINUSE', `port ${port} on 127.0.0.1 is already in use`))
  await t.rejects(failed, { message: `cannot listen: port ${port} on 127.0.0.1 is already in use` })
  t.equal(logs.logger.level, 'info', 'the level is back after a failed listen')
})

t.test('a host that does not resolve is named', async t => {
  await t.rejects(startMockNvr({ host: 'nosuch.invalid', data: {}, logLevel: 'silent' }), { name: 'ListenError', message: 'cannot listen: cannot resolve host nosuch.invalid' })
})

t.test('listen errors of other kinds are described too, and any other error passes as it is', async t => {
  const failure = (code: string, extra: object = {}) => Object.assign(new Error(`listen ${code}`), { code, ...extra })
  t.equal((describeListenError(failure('EADDRNOTAVAIL', { address: '192.0.2.1' }), '192.0.2.1', 80) as Error).message, 'cannot listen: 192.0.2.1 is not an address of this machine')
  t.equal((describeListenError(failure('EACCES'), 'localhost', 80) as Error).message, 'cannot listen: port 80 on localhost needs privileges this process lacks (ports below 1024 do on most systems)')
  t.equal((describeListenError(failure('EAI_AGAIN'), 'nvr.lan', 80) as ListenError).problem, 'cannot resolve host nvr.lan')
  const odd = failure('EMFILE')
  t.equal(describeListenError(odd, '127.0.0.1', 80), odd)
})

t.test('a control address that cannot listen for a reason not known is passed on as it is', async t => {
  const odd = Object.assign(new Error('odd'), { code: 'EODD' })
  t.equal(describeControlListenError(odd, '127.0.0.1', 1), odd)
})
