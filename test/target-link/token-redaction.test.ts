import { createRequire } from 'node:module'
import t, { type Test } from 'tap'
import { RecordRefusedError, recordTarget, startMockNvr, verifyTarget } from '../../src/index.js'
import { renderJunit } from '../../src/target-link/report-junit.js'
import { renderReport } from '../../src/target-link/report-text.js'
import { pointerSegment } from '../../src/target-client/contract-check.js'
import { redactStrings, tokenRedactor } from '../../src/target-client/token-redaction.js'
import { line } from '../helpers/app.js'
import { ok, send, startFakeTarget } from '../helpers/fake-target.js'
import { captureLogs } from '../helpers/log-capture.js'

// jsdom ships no types; its XML parser refuses a document that is not well-formed.
const { JSDOM } = createRequire(import.meta.url)('jsdom') as { JSDOM: new (text: string, options: { contentType: string }) => unknown }

// Characters that JSON, a URL path and a JSON Pointer each write otherwise.
const TOKEN = 'To"k\\en/~x%2F+=;`\'9Z'
const FORMS = [TOKEN, JSON.stringify(TOKEN).slice(1, -1), encodeURIComponent(TOKEN), pointerSegment(TOKEN)]

/** Every form the token could be shown in, and what of it would still give it away. */
function leaks (text: string): string[] {
  return FORMS.filter(form => text.includes(form))
}

/** A target that echoes the token back everywhere it can: values, field names, line ids, headers, error pages. */
async function echoingTarget (t: Test) {
  return startFakeTarget(t, (request, response) => {
    const url = request.url as string
    const auth = request.headers.authorization ?? ''
    if (auth !== `Bearer ${TOKEN}`) {
      send(response, 401, `<html>${auth} is not ${TOKEN}</html>`, { 'content-type': 'text/html', 'www-authenticate': `Bearer token="${TOKEN}"`, allow: TOKEN })
    } else if (url === '/nvr/v1/cameras/cam-1/counting_lines') {
      send(response, 200, ok([{ ...line(), max_age: TOKEN, [TOKEN]: 1 }, line({ id: TOKEN }), line({ id: 'line-3', name: `x${TOKEN}` })]))
    } else if (url === '/nvr/v1/cameras/cam-1/counting_lines/line-3') {
      send(response, 302, '', { location: `https://login.example/?t=${encodeURIComponent(TOKEN)}` })
    } else if (url.startsWith('/nvr/v1/cameras/cam-1/counting_lines/')) {
      send(response, 200, ok({ ...line(), camera_id: TOKEN }))
    } else {
      send(response, 404, `<html>${TOKEN}</html>`, { 'content-type': `text/html; ${TOKEN}` })
    }
  })
}

t.test('a target that echoes the token: no form of it in the report, its text, its JSON or its JUnit', async t => {
  const { url } = await echoingTarget(t)
  const report = await verifyTarget({ target: url, token: TOKEN, cameras: ['cam-1'] })
  t.ok(report.violations.some(violation => violation.line === '[token]'), 'a line id that is the token')
  t.ok(report.violations.some(violation => violation.path === '/content/0/[token]'), 'a field name that is the token')
  t.ok(report.violations.some(violation => violation.request.endsWith('/counting_lines/[token]')), 'a request path holding it percent-encoded')
  t.ok(report.violations.some(violation => violation.problem === 'must be a whole number, not "[token]"'), 'a value holding it JSON-escaped')
  t.ok(report.differences.some(difference => difference.device.headers['www-authenticate'] === 'Bearer token="[token]"'), 'a header')
  for (const [name, output] of [['report', JSON.stringify(report)], ['text', renderReport(report)], ['junit', renderJunit(report, { strict: true })]] as const) {
    t.strictSame(leaks(output), [], name)
  }
  t.doesNotThrow(() => new JSDOM(renderJunit(report, { strict: true }), { contentType: 'application/xml' }), 'the JUnit report is well-formed XML')

  const refusal = await recordTarget({ target: url, token: TOKEN, cameras: ['cam-1'] }).catch(error => error as RecordRefusedError)
  t.ok(refusal instanceof RecordRefusedError)
  t.strictSame(leaks(JSON.stringify((refusal as RecordRefusedError).report)), [], 'record\'s refusal report')
})

t.test('the proxy logs the violations of an echoing target without the client\'s token', async t => {
  const { url } = await echoingTarget(t)
  const logs = captureLogs()
  const proxy = await startMockNvr({ proxy: { target: url }, logger: logs.logger, logLevel: 'info' })
  t.teardown(() => proxy.close())
  for (const path of ['/nvr/v1/cameras/cam-1/counting_lines', `/nvr/v1/cameras/cam-1/counting_lines/${encodeURIComponent(TOKEN)}`]) {
    t.equal((await fetch(`${proxy.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } })).status, 200)
  }
  const warnings = logs.records.filter(entry => entry.msg.startsWith('the target broke the contract'))
  t.ok(warnings.length >= 2)
  t.strictSame(warnings.flatMap(entry => leaks(JSON.stringify(entry))), [])
  t.ok(warnings.some(entry => entry.msg === 'the target broke the contract at /nvr/v1/cameras/cam-1/counting_lines/[token]'))
})

t.test('the redactor: every form, the longest first, and nothing for an empty token', async t => {
  const redact = tokenRedactor('a/b')
  t.equal(redact('a/b a%2Fb a~1b "a/b"'), '[token] [token] [token] "[token]"')
  t.equal(tokenRedactor('')('text'), 'text')
  t.strictSame(redactStrings({ a: ['a/b', 1, null, { 'a/b': 'x a/b' }] }, redact), { a: ['[token]', 1, null, { 'a/b': 'x [token]' }] }, 'strings at any depth, not keys')
})
