import type { Violation } from '../device-client/contract-check.js'
import type { Observation } from './observation.js'
import type { Difference, VerifyReport } from './verify-device.js'

const STYLES = { bold: '1', red: '31', green: '32', yellow: '33', dim: '2' } as const
type Style = keyof typeof STYLES

/** The report as a person reads it on a terminal: a table per part; colour only when asked for (a TTY). */
export function renderReport (report: VerifyReport, { colour = false, strict = false, contractOnly = false } = {}): string {
  const paint = (style: Style, text: string): string => colour ? `\u001b[${STYLES[style]}m${text}\u001b[0m` : text
  const lines = [
    paint('bold', `mock-nvr ${contractOnly ? 'record' : 'verify'} ${report.target}`),
    `cameras: ${report.cameras.join(', ')}`,
    `time: ${report.time}`,
    '',
    paint('bold', `Contract: ${count(report.violations.length, 'violation')}`)
  ]
  if (report.violations.length > 0) lines.push(...table(['camera', 'line', 'request', 'path', 'problem'], report.violations.map(violationRow)))
  if (!contractOnly) {
    if (report.probedCamera === null) {
      lines.push('', paint('bold', 'Unspecified behaviour: not compared, since no camera answered its list'))
    } else {
      lines.push('', paint('bold', `Unspecified behaviour (asked on camera ${report.probedCamera}): ${count(report.differences.length, 'difference')} from mock-nvr's decisions`))
      if (report.differences.length > 0) lines.push(...table(['case / request', 'what', 'device', 'mock-nvr'], report.differences.map(differenceRows)))
    }
  }
  lines.push('', summary(report, strict, contractOnly, paint), '')
  return lines.join('\n')
}

function summary (report: VerifyReport, strict: boolean, contractOnly: boolean, paint: (style: Style, text: string) => string): string {
  const failed = report.violations.length > 0 || (strict && report.differences.length > 0)
  const compared = report.probedCamera === null ? 'unspecified behaviour not compared' : count(report.differences.length, 'difference')
  const differences = contractOnly ? '' : `, ${compared}${strict ? ' (--strict: differences count)' : ''}`
  const text = `${count(report.violations.length, 'violation')}${differences}`
  if (failed) return paint('red', `FAIL: ${text}`)
  return paint(report.differences.length > 0 ? 'yellow' : 'green', `OK: ${text}`)
}

function count (n: number, noun: string): string {
  return n === 0 ? `no ${noun}s` : `${n} ${noun}${n === 1 ? '' : 's'}`
}

function violationRow ({ camera, line, request, path, problem }: Violation): string[][] {
  return [[camera, line ?? '-', request, path === '' ? '-' : path, problem]]
}

/**
 * A difference as rows short enough to read: the case and its request down the first column, then one
 * row for the status and body, and one for each header that differs.
 */
function differenceRows ({ case: name, request, device, mock }: Difference): string[][] {
  const rows = [['status, body', describeAnswer(device), describeAnswer(mock)]]
  for (const header of differingHeaders(device, mock)) rows.push([header, device.headers[header] ?? '(none)', mock.headers[header] ?? '(none)'])
  const left = [name, request]
  return Array.from({ length: Math.max(rows.length, left.length) }, (_, index) => [left[index] ?? '', ...(rows[index] ?? ['', '', ''])])
}

function describeAnswer (observation: Observation): string {
  return observation.status === null ? observation.envelope : `${observation.status}, ${observation.envelope}`
}

function differingHeaders (observation: Observation, other: Observation): string[] {
  return [...new Set([...Object.keys(observation.headers), ...Object.keys(other.headers)])].filter(name => observation.headers[name] !== other.headers[name])
}

/** Status and body kind, then the headers that differ from the other side's, in one line. */
export function describeObservation (observation: Observation, other: Observation): string {
  return [describeAnswer(observation), ...differingHeaders(observation, other).map(name => `${name}: ${observation.headers[name] ?? '(none)'}`)].join('; ')
}

/** Columns padded to their widest cell (the last never padded); each entry's rows kept together, entries of several rows set apart by a blank line. */
function table (head: string[], entries: string[][][]): string[] {
  const rows = entries.flat()
  const widths = head.map((title, column) => Math.max(title.length, ...rows.map(row => (row[column] as string).length)))
  const format = (cells: string[]): string => `  ${cells.map((cell, column) => column === cells.length - 1 ? cell : cell.padEnd(widths[column] as number)).join('  ')}`.trimEnd()
  const spaced = entries.some(entry => entry.length > 1)
  return [format(head), format(widths.map(width => '-'.repeat(width))), ...entries.flatMap((entry, index) => [...(spaced && index > 0 ? [''] : []), ...entry.map(format)])]
}
