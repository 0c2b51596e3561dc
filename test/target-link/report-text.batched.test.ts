import t from 'tap'
import { renderReport } from '../../src/target-link/report-text.js'
import type { VerifyReport } from '../../src/target-link/verify-target.js'

const LIST = '/nvr/v1/cameras/cam-1/counting_lines'

t.test('a difference in status and body alone is one row, its request under the case; no answer is shown without a status', async t => {
  const report: VerifyReport = {
    target: 'http://127.0.0.1:1',
    time: '2024-05-01T08:30:00.000Z',
    cameras: ['cam-1'],
    probedCamera: 'cam-1',
    violations: [],
    differences: [{
      case: 'HEAD',
      request: `HEAD ${LIST}`,
      device: { status: null, headers: {}, envelope: 'no answer: the target closed the connection before answering in full' },
      mock: { status: 200, headers: {}, envelope: 'empty' }
    }]
  }
  const lines = renderReport(report).split('\n')
  const head = lines.findIndex(line => line.startsWith('  case / request'))
  t.strictSame(lines.slice(head + 2, head + 5), [
    '  HEAD                                       status, body  no answer: the target closed the connection before answering in full  200, empty',
    `  HEAD ${LIST}`,
    ''
  ])
})

t.test('error members show only where both answered an error envelope, and a header row shared by some cases names them', async t => {
  const error = (errorCode: string, errorMessage: string) => ({ status: 404, headers: {}, envelope: 'error envelope', errorCode, errorMessage })
  const cors = { 'access-control-allow-origin': '*' }
  const report: VerifyReport = {
    target: 'http://127.0.0.1:1',
    time: '2024-05-01T08:30:00.000Z',
    cameras: ['cam-1'],
    probedCamera: 'cam-1',
    violations: [],
    differences: [
      { case: 'a', request: `GET ${LIST}/a`, device: error('"X"', 'a string'), mock: { ...error('"Y"', 'a string'), headers: cors } },
      { case: 'b', request: `GET ${LIST}/b`, device: error('"Y"', '(none)'), mock: { ...error('"Y"', 'a string'), headers: cors } },
      { case: 'c', request: `GET ${LIST}/c`, device: { status: 404, headers: {}, envelope: 'empty' }, mock: error('"Y"', 'a string') },
      { case: 'd', request: `GET ${LIST}/d`, device: { status: 500, headers: {}, envelope: 'empty' }, mock: { status: 200, headers: {}, envelope: 'empty' } }
    ]
  }
  const text = renderReport(report)
  t.match(text, / {2}a\s+status, body\s+404, error envelope\s+404, error envelope\n {2}GET \S+\s+errorCode\s+"X"\s+"Y"\n\n/, 'only the member that differs')
  t.match(text, / {2}b\s+status, body\s+404, error envelope\s+404, error envelope\n {2}GET \S+\s+errorMessage\s+\(none\)\s+a string\n\n/)
  t.match(text, / {2}c\s+status, body\s+404, empty\s+404, error envelope\n {2}GET \S+\n\n/, 'no member rows beside a body that is no error envelope')
  t.match(text, '\n  Alike in 2 cases: a, b:\n')
  t.equal(text.match(/access-control-allow-origin/g)?.length, 1)
})
