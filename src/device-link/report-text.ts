import type { Violation } from '../device-client/contract-check.js'
import type { Observation } from './observation.js'
import type { Difference, VerifyReport } from './verify-device.js'

const STYLES = { bold: '1', red: '31', green: '32', yellow: '33', dim: '2' } as const
type Style = keyof typeof STYLES

/** The report as a person reads it on a terminal: a table per part; colour only when asked for (a TTY). */
export function renderReport (report: VerifyReport, { colour = false, strict = false, contractOnly = false } = {}): string {
  const paint = (style: Style, text: string): string => colour ? `\u001b[${STYLES[style]}m${text}\u001b[0m` : text
  const lines = [
    paint('bold', `mock-nvr verify ${report.target}`),
    `cameras: ${report.cameras.join(', ')}`,
    `time: ${report.time}`,
    '',
    paint('bold', `Contract: ${count(report.violations.length, 'violation')}`)
  ]
  if (report.violations.length > 0) lines.push(...table(['camera', 'line', 'request', 'path', 'problem'], report.violations.map(violationRow)))
  if (!contractOnly) {
    lines.push('', paint('bold', `Unspecified behaviour: ${count(report.differences.length, 'difference')} from mock-nvr's decisions`))
    if (report.differences.length > 0) lines.push(...table(['case', 'request', 'device', 'mock-nvr'], report.differences.map(differenceRow)))
  }
  lines.push('', summary(report, strict, contractOnly, paint), '')
  return lines.join('\n')
}

function summary (report: VerifyReport, strict: boolean, contractOnly: boolean, paint: (style: Style, text: string) => string): string {
  const failed = report.violations.length > 0 || (strict && report.differences.length > 0)
  const differences = contractOnly ? '' : `, ${count(report.differences.length, 'difference')}${strict ? ' (--strict: differences count)' : ''}`
  const text = `${count(report.violations.length, 'violation')}${differences}`
  if (failed) return paint('red', `FAIL: ${text}`)
  return paint(report.differences.length > 0 ? 'yellow' : 'green', `OK: ${text}`)
}

function count (n: number, noun: string): string {
  return n === 0 ? `no ${noun}s` : `${n} ${noun}${n === 1 ? '' : 's'}`
}

function violationRow ({ camera, line, request, path, problem }: Violation): string[] {
  return [camera, line ?? '-', request, path === '' ? '-' : path, problem]
}

function differenceRow ({ case: name, request, device, mock }: Difference): string[] {
  return [name, request, describeObservation(device, mock), describeObservation(mock, device)]
}

/** Status and body kind, then the headers that differ from the other side's. */
export function describeObservation (observation: Observation, other: Observation): string {
  const parts = [observation.status === null ? '-' : String(observation.status), observation.envelope]
  for (const name of new Set([...Object.keys(observation.headers), ...Object.keys(other.headers)])) {
    const value = observation.headers[name]
    if (value !== other.headers[name]) parts.push(`${name}: ${value ?? '(none)'}`)
  }
  return parts.join('; ')
}

/** Columns padded to their widest cell; the last column is never padded. */
function table (head: string[], rows: string[][]): string[] {
  const widths = head.map((title, column) => Math.max(title.length, ...rows.map(row => (row[column] as string).length)))
  const format = (cells: string[]): string => `  ${cells.map((cell, column) => column === cells.length - 1 ? cell : cell.padEnd(widths[column] as number)).join('  ')}`
  return [format(head), format(widths.map(width => '-'.repeat(width))), ...rows.map(format)]
}
