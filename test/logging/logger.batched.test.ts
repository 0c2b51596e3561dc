import { Writable } from 'node:stream'
import t from 'tap'
import { pino } from 'pino'
import type { FastifyBaseLogger } from 'fastify'
import { createLogger, deviceLogger, jsonLogger, jsonRequestLine, loggedMillisecondsText, prettyLogger, requestLineLevel, requestLineWriter } from '../../src/logging/logger.js'
import { loggedMilliseconds } from '../../src/logging/request-line.js'
import { RecordEachRequest } from '../../src/app/request-log-controller.js'
import { RequestJournal } from '../../src/control/journal.js'
import { RequestRecorder } from '../../src/control/request-recorder.js'
import { LogSink } from '../../src/logging/log-sink.js'
import { scriptedIo } from '../helpers/scripted-io.js'
import { buildApp } from '../../src/app/build-app.js'
import { TokenPolicy } from '../../src/wire/token-policy.js'
import { CorsPolicy } from '../../src/wire/cors.js'
import { DataStore } from '../../src/data/data-store.js'
import { datasetFromData } from '../../src/data/dataset.js'
import { AUTH, SAMPLE_DATA, TOKEN } from '../helpers/app.js'
import { startMockNvr } from '../../src/start/start-mock-nvr.js'
import { startMockFleet } from '../../src/fleet/start-mock-fleet.js'

/** Fastify's log controller, writing request lines to this logger as the app sets it up. */
function controllerLoggingTo (log: FastifyBaseLogger): RecordEachRequest {
  const recorder = new RequestRecorder(new RequestJournal(10))
  recorder.logTo(log, requestLineWriter(log))
  return new RecordEachRequest(() => recorder)
}

const REQUEST = { id: 'req-1', method: 'GET', url: '/x', params: {} } as never

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
  const controller = controllerLoggingTo(log)
  const reply = { log, elapsedTime: 1 } as never
  controller.requestCompleted(new Error('socket hang up'), REQUEST, reply)
  controller.incomingRequest()
  controller.routeNotFound()
  t.equal(lines.length, 1)
  t.match(lines[0], { level: 50, msg: 'request errored', err: { message: 'socket hang up' } })
})

t.test('a client closing a stream early is logged at debug; any other stream error stays a warning', async t => {
  const { lines, stream } = capture()
  const log = pino({ level: 'debug' }, stream)
  const controller = controllerLoggingTo(log)
  const reply = { log, elapsedTime: 1 } as never
  controller.streamError(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }), REQUEST, reply)
  controller.streamError(new Error('disk on fire'), REQUEST, reply)
  t.match(lines, [{ level: 20, msg: 'the client closed the stream' }, { level: 40, err: { message: 'disk on fire' } }])
  t.equal(lines.length, 2)
})

t.test('a completed request is logged only when info is on; a logger that cannot tell is asked anyway', async t => {
  for (const level of ['info', 'warn']) {
    const { lines, stream } = capture()
    controllerLoggingTo(pino({ level }, stream)).requestCompleted(null, REQUEST, { elapsedTime: 1, statusCode: 200 } as never)
    t.equal(lines.length, level === 'info' ? 1 : 0, level)
  }
  const asked: unknown[] = []
  const levelless = { info: (...args: unknown[]) => asked.push(args) } as unknown as FastifyBaseLogger
  controllerLoggingTo(levelless).requestCompleted(null, REQUEST, { elapsedTime: 1, statusCode: 200 } as never)
  t.match(asked, [[{ responseTime: 1 }, 'request completed']])
})

t.test('a request line writes its time as the number it logs would be written', async t => {
  const times = [0, -0, 0.004, 0.005, 0.05, 0.5, 1, 10.38491, 12.3456, 99.999, 1234.5678, 2 ** 40 + 0.25, 1e300, -1.25, Number.NaN, Number.POSITIVE_INFINITY]
  for (let step = 0; step < 20_000; step++) times.push(step * 0.0137, step * 1.0001)
  const wrong = times.filter(ms => loggedMillisecondsText(ms) !== String(loggedMilliseconds(ms)))
  t.strictSame(wrong, [])
})

t.test('a request time is logged to 0.01 ms, on both the completed and the errored line', async t => {
  t.strictSame([0.123456789, 0.125, 2.999, 41.2, 0].map(loggedMilliseconds), [0.12, 0.13, 3, 41.2, 0])
  const { lines, stream } = capture()
  const log = pino({ level: 'info' }, stream)
  const controller = controllerLoggingTo(log)
  const reply = { log, elapsedTime: 0.387654, statusCode: 200 } as never
  controller.requestCompleted(null, REQUEST, reply)
  controller.requestCompleted(new Error('boom'), REQUEST, reply)
  t.strictSame(lines.map(line => line.responseTime), [0.39, 0.39])
})

t.test('JSON lines by default, pretty lines on request, silent when asked', async t => {
  t.equal(createLogger({ logLevel: 'info', prettyLogs: false }).level, 'info')
  t.equal(createLogger({ logLevel: 'debug', prettyLogs: true }).level, 'debug')
  t.equal(createLogger({ logLevel: 'silent', prettyLogs: false }).level, 'silent')
})

t.test('pretty logs print one line for a request, and one for each entry with fields', async t => {
  let text = ''
  const output = new Writable({ write (chunk: Buffer, _encoding, done) { text += chunk.toString(); done() } })
  const logger = prettyLogger('info', output)
  requestLineWriter(logger)('req-2', 'GET', '/nvr/v1/cameras/nope/counting_lines', 404, 10.38491)
  logger.info({ cameras: 6, countingLines: 16 }, 'serving counting lines')
  // eslint-disable-next-line no-control-regex
  const lines = text.replace(/\u001b\[[0-9;]*m/g, '').split('\n').filter(line => line !== '')
  t.equal(lines.length, 2, text)
  t.match(lines[0], /^\[[\d:.]+\] INFO: GET \/nvr\/v1\/cameras\/nope\/counting_lines 404 10\.38 ms \(req-2\)$/)
  t.match(lines[1], /INFO: serving counting lines \{"cameras":6,"countingLines":16\}$/)
})

t.test('a request line written as one string is byte for byte the line pino writes', async t => {
  const realNow = Date.now
  Date.now = () => 1_700_000_000_123
  t.teardown(() => { Date.now = realNow })
  const urls = ['/nvr/v1/cameras/cam-1/counting_lines?q="x"\\', '/nvr/v1/cameras/ü/counting_lines/\u0001\u2028', '/healthz', '/x/\ud83d\ude00/\u007f']
  for (const base of [undefined, { pid: 7, hostname: 'nvr "one"' }, null]) {
    const written: string[] = []
    const logger = pino({ level: 'info', ...(base === undefined ? {} : { base }), redact: ['headers.authorization'] }, { write: (line: string) => written.push(line) })
    const writeLine = jsonRequestLine(logger, { write: (line: string) => written.push(line) })
    // A logger not made here is asked through info(), as the Fastify path asks it.
    const logLine = requestLineWriter(logger)
    for (const url of urls) {
      for (const [reqId, method] of [['req-1z', 'GET'], ['a "b"', 'HEAD'], ['\\', 'M"\u0002']]) {
        logLine(reqId as string, method as string, url, 200, 0.123456789)
        writeLine(reqId as string, method as string, url, 200, 0.123456789)
      }
    }
    t.equal(written.length, 24)
    for (let index = 0; index < written.length; index += 2) t.equal(written[index + 1], written[index], `with base ${JSON.stringify(base)}`)
    t.match(written[0], /,"responseTime":0\.12,"msg"/, 'to 0.01 ms')
  }
})

t.test('the JSON logger made here writes request lines as one string; any other logger is asked to log them', async t => {
  t.not(requestLineWriter(createLogger({ logLevel: 'info', prettyLogs: false })).name, 'logRequestLine')
  const { lines, stream } = capture()
  requestLineWriter(pino(stream))('req-2', 'HEAD', '/x', 200, 1.5)
  t.strictSame(lines.map(({ time, pid, hostname, ...line }) => line), [{ level: 30, reqId: 'req-2', method: 'HEAD', url: '/x', statusCode: 200, responseTime: 1.5, msg: 'request completed' }])
})

t.test('a JSON logger whose lines were dropped says so in a warning once its output is read again', async t => {
  const { io, text } = scriptedIo(['full'])
  const sink = new LogSink(1, 400, io)
  const logger = jsonLogger('info', sink)
  for (let count = 0; count < 10; count++) logger.info({ count }, 'busy')
  await sink.flushed()
  const lines = text().trim().split('\n').map(line => JSON.parse(line) as Record<string, unknown>)
  const warning = lines.at(-1)
  t.match(warning, { level: 40, droppedLines: 10 - (lines.length - 1), msg: /dropped/ })
  t.ok(lines.length > 1 && lines.length < 11, `${lines.length - 1} lines kept`)
})

t.test('should anything log headers, the JSON logger redacts Authorization and Cookie', async t => {
  const { io, text } = scriptedIo()
  const sink = new LogSink(1, 1 << 20, io)
  jsonLogger('info', sink).info({ headers: { authorization: `Bearer ${TOKEN}`, cookie: 'session=secret', accept: 'application/json' } }, 'headers')
  await sink.flushed()
  t.match(JSON.parse(text()), { headers: { authorization: '[redacted]', cookie: '[redacted]', accept: 'application/json' } })
  t.notMatch(text(), new RegExp(`${TOKEN}|session=secret`))
})

t.test('a device\'s logger names the device on every line, request lines too (at debug), JSON or pretty or any other', async t => {
  const { io, text } = scriptedIo()
  const sink = new LogSink(1, 1 << 20, io)
  const json = deviceLogger(jsonLogger('debug', sink), 'nvr-007')
  t.equal(requestLineLevel(json), 'debug', 'a fleet device\'s request lines are at debug')
  requestLineWriter(json)('req-1', 'GET', '/x', 200, 1)
  json.info('health: offline')
  await sink.flushed()
  t.match(text().trim().split('\n').map(line => JSON.parse(line) as Record<string, unknown>), [
    { level: 20, device: 'nvr-007', reqId: 'req-1', msg: 'request completed' },
    { device: 'nvr-007', msg: 'health: offline' }
  ])

  let pretty = ''
  const output = new Writable({ write (chunk: Buffer, _encoding, done) { pretty += chunk.toString(); done() } })
  requestLineWriter(deviceLogger(prettyLogger('debug', output), 'nvr-008'))('req-2', 'GET', '/y', 404, 2)
  t.match(pretty, /GET \/y 404 2 ms \(req-2\).*nvr-008/)
  t.equal(pretty.trim().split('\n').length, 1, 'still one line')

  const { lines, stream } = capture()
  requestLineWriter(deviceLogger(pino({ level: 'debug' }, stream), 'nvr-009'))('req-3', 'GET', '/z', 200, 1)
  t.match(lines, [{ level: 20, device: 'nvr-009', reqId: 'req-3', msg: 'request completed' }])
  t.equal(requestLineLevel(pino(stream)), 'info', 'any other logger\'s at info')
})

t.test('the app and a fleet\'s devices write request lines with the JSON logger\'s quick writer, never through info()', async t => {
  for (const fleet of [false, true]) {
    const { io, text } = scriptedIo()
    const sink = new LogSink(1, 1 << 20, io)
    // A fleet's devices write theirs at debug.
    const logger = jsonLogger(fleet ? 'debug' : 'info', sink)
    const infoCalls: unknown[] = []
    const running = fleet ? await startMockFleet({ count: 1, data: SAMPLE_DATA, logger }) : await startMockNvr({ port: 0, data: SAMPLE_DATA, logger })
    t.teardown(() => running.close())
    const nvr = 'devices' in running ? running.devices[0]! : running
    // Request lines through info() would pass here: the app's logger and the device's.
    const spy = (log: FastifyBaseLogger) => {
      for (const level of ['info', 'debug'] as const) {
        const write = log[level].bind(log)
        log[level] = ((...args: unknown[]) => { infoCalls.push(args); (write as (...a: unknown[]) => void)(...args) }) as never
      }
    }
    spy(nvr.app.log)
    for (const url of ['/nvr/v1/cameras/cam-1/counting_lines', '/nvr/v1/cameras/nope/counting_lines']) {
      await (await fetch(`${nvr.url}${url}`, { headers: AUTH })).arrayBuffer()
    }
    await sink.flushed()
    const lines = text().trim().split('\n').map(line => JSON.parse(line) as Record<string, unknown>).filter(line => line.msg === 'request completed')
    t.match(lines, [{ statusCode: 200 }, { statusCode: 404 }], fleet ? 'a fleet device' : 'a single mock-nvr')
    t.strictSame(infoCalls.filter(args => (args as unknown[])[1] === 'request completed'), [])
  }
})
