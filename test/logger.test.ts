import { Writable } from 'node:stream'
import t from 'tap'
import { pino } from 'pino'
import { createLogger, OneLinePerRequest } from '../src/logger.js'
import { buildApp } from '../src/app.js'
import { TokenPolicy } from '../src/auth.js'
import { CorsPolicy } from '../src/cors.js'
import { DataStore } from '../src/data-store.js'
import { datasetFromData } from '../src/fixtures.js'
import { AUTH, SAMPLE_DATA, TOKEN } from './helper.js'

function capture () {
  const lines: Array<Record<string, unknown>> = []
  const stream = new Writable({
    write (chunk, _encoding, callback) {
      for (const text of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(text))
      callback()
    }
  })
  return { lines, stream }
}

t.test('one line per request, with method, URL, status and time, and no token anywhere', async t => {
  const { lines, stream } = capture()
  const app = await buildApp({
    store: new DataStore(datasetFromData(SAMPLE_DATA)),
    tokens: new TokenPolicy([TOKEN]),
    cors: new CorsPolicy(),
    maxHeaderSize: 65536,
    logger: pino({ level: 'trace' }, stream)
  })
  t.teardown(() => app.close())
  await app.inject({ url: '/nvr/v1/cameras/cam-1/counting_lines', headers: AUTH })
  await app.inject({ url: '/nvr/v1/cameras/cam-1/counting_lines', headers: { authorization: 'Bearer refused-secret' } })
  await app.inject({ url: '/nothing-here', headers: AUTH })
  const requestLines = lines.filter(line => line.msg === 'request completed')
  t.equal(requestLines.length, 3)
  t.match(requestLines[0], { level: 30, method: 'GET', url: '/nvr/v1/cameras/cam-1/counting_lines', statusCode: 200, responseTime: Number })
  t.match(requestLines[1], { statusCode: 401 })
  t.notMatch(JSON.stringify(lines), new RegExp(`${TOKEN}|refused-secret|authorization`, 'i'))
})

t.test('a request that fails while sending is logged as an error', async t => {
  const { lines, stream } = capture()
  const log = pino(stream)
  const controller = new OneLinePerRequest()
  const reply = { log, elapsedTime: 1 } as never
  controller.requestCompleted(new Error('socket hang up'), { raw: {} } as never, reply)
  controller.incomingRequest()
  controller.routeNotFound()
  t.equal(lines.length, 1)
  t.match(lines[0], { level: 50, msg: 'request errored', err: { message: 'socket hang up' } })
})

t.test('a completed request is logged only when info is on; a logger that cannot tell is asked anyway', async t => {
  const controller = new OneLinePerRequest()
  const request = { raw: {} } as never
  for (const level of ['info', 'warn']) {
    const { lines, stream } = capture()
    controller.requestCompleted(null, request, { log: pino({ level }, stream), elapsedTime: 1 } as never)
    t.equal(lines.length, level === 'info' ? 1 : 0, level)
  }
  const asked: unknown[] = []
  const levelless = { info: (...args: unknown[]) => asked.push(args) }
  controller.requestCompleted(null, request, { log: levelless, elapsedTime: 1 } as never)
  t.match(asked, [[{ responseTime: 1 }, 'request completed']])
})

t.test('JSON lines by default, pretty lines on request, silent when asked', async t => {
  t.equal(createLogger({ logLevel: 'info', prettyLogs: false }).level, 'info')
  t.equal(createLogger({ logLevel: 'debug', prettyLogs: true }).level, 'debug')
  t.equal(createLogger({ logLevel: 'silent', prettyLogs: false }).level, 'silent')
})
