import t from 'tap'
import { startMockNvr } from '../../src/index.js'
import { docSection, readDoc } from '../helpers/docs.js'

// Answers the pages quote are the answers mock-nvr gives on its bundled fixtures, byte for byte.

t.test('the /healthz answer on the command-line page is the one the bundled fixtures give', async t => {
  const shown = /`GET \/healthz` answers `200 (\{[^`]*\})`/.exec(docSection(readDoc('docs/command-line.md'), 'cli'))?.[1]
  if (shown === undefined) throw new Error('the command-line page quotes no /healthz answer')
  const nvr = await startMockNvr()
  t.teardown(() => nvr.close())
  const answer = await nvr.app.inject({ url: '/healthz' })
  t.equal(answer.statusCode, 200)
  t.equal(shown, answer.body)
})

t.test('the admin table of the testing page has one row per call', async t => {
  const calls = [...readDoc('docs/testing.md').matchAll(/^\| `((?:GET|HEAD|PUT|POST|DELETE) \/__admin[^`]*)` \|/gm)].map(([, call]) => call as string)
  t.ok(calls.includes('POST /__admin/reset'))
  t.strictSame(calls.filter((call, index) => calls.indexOf(call) !== index), [], 'no call twice')
})
