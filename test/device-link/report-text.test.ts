import t from 'tap'
import { renderReport } from '../../src/device-link/report-text.js'
import type { VerifyReport } from '../../src/device-link/verify-device.js'

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
      device: { status: null, headers: {}, envelope: 'no answer: the device closed the connection before answering in full' },
      mock: { status: 200, headers: {}, envelope: 'empty' }
    }]
  }
  const lines = renderReport(report).split('\n')
  const head = lines.findIndex(line => line.startsWith('  case / request'))
  t.strictSame(lines.slice(head + 2, head + 5), [
    '  HEAD                                       status, body  no answer: the device closed the connection before answering in full  200, empty',
    `  HEAD ${LIST}`,
    ''
  ])
})
