import type { VerifyReport } from './verify-target.js'
import { describeObservation } from './report-text.js'

/**
 * The report as JUnit XML for CI systems: one test case per camera for the contract, one per difference
 * for the unspecified cases, which fail only with strict (a skipped one when none were compared).
 */
export function renderJunit (report: VerifyReport, { strict = false } = {}): string {
  const cameraCases = report.cameras.map(camera => {
    const violations = report.violations.filter(violation => violation.camera === camera)
    const detail = violations.map(({ line, request, path, problem }) => `${line ?? '-'} ${request} ${path === '' ? '-' : path}: ${problem}`).join('\n')
    const failure = violations.length === 0 ? '' : `<failure message="${escape(`${violations.length} violation(s)`)}" type="violation">${escape(detail)}</failure>`
    return `    <testcase classname="contract" name="${escape(`camera ${camera}`)}">${failure}</testcase>`
  })
  const differenceCases = report.differences.map(difference => {
    const detail = `${difference.request}\ndevice: ${describeObservation(difference.device, difference.mock)}\nmock-nvr: ${describeObservation(difference.mock, difference.device)}`
    const body = strict ? `<failure message="differs from mock-nvr" type="difference">${escape(detail)}</failure>` : `<system-out>${escape(detail)}</system-out>`
    return `    <testcase classname="unspecified behaviour" name="${escape(difference.case)}">${body}</testcase>`
  })
  if (report.probedCamera === null) differenceCases.push('    <testcase classname="unspecified behaviour" name="not compared"><skipped message="no camera answered its list"/></testcase>')
  const violationFailures = report.cameras.filter(camera => report.violations.some(violation => violation.camera === camera)).length
  const differenceFailures = strict ? report.differences.length : 0
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escape(`mock-nvr verify ${report.target}`)}" tests="${cameraCases.length + differenceCases.length}" failures="${violationFailures + differenceFailures}">`,
    `  <testsuite name="contract" tests="${cameraCases.length}" failures="${violationFailures}" timestamp="${report.time}">`,
    ...cameraCases,
    '  </testsuite>',
    `  <testsuite name="unspecified behaviour" tests="${differenceCases.length}" failures="${differenceFailures}"${report.probedCamera === null ? ' skipped="1"' : ''} timestamp="${report.time}">`,
    ...differenceCases,
    '  </testsuite>',
    '</testsuites>',
    ''
  ].join('\n')
}

// XML 1.0 allows no control characters but tab and newline, even escaped.
function escape (text: string): string {
  return text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '?')
    .replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')
}
