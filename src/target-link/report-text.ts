import type { Violation } from '../target-client/contract-check.js'
import type { Observation } from './observation.js'
import type { Difference, VerifyReport } from './verify-target.js'

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
      if (report.differences.length > 0) lines.push(...differenceTables(report.differences))
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

type Row = [what: string, target: string, mock: string]

/**
 * The differences as tables short enough to read: per case, its request and a row for the status and body,
 * one for errorCode and errorMessage where they differ, and one for each header that differs in this case
 * alone. A header row alike in several cases (CORS headers, a charset) is shown once, below, with the cases.
 */
function differenceTables (differences: Difference[]): string[] {
  const casesOfRow = new Map<string, string[]>()
  for (const difference of differences) {
    for (const row of headerRows(difference)) casesOfRow.set(JSON.stringify(row), [...casesOfRow.get(JSON.stringify(row)) ?? [], difference.case])
  }
  const isShared = (row: Row): boolean => (casesOfRow.get(JSON.stringify(row)) as string[]).length > 1
  const entries = differences.map(difference => {
    const rows = [...answerRows(difference), ...headerRows(difference).filter(row => !isShared(row))]
    const left = [difference.case, difference.request]
    return Array.from({ length: Math.max(rows.length, left.length) }, (_, line) => [left[line] ?? '', ...(rows[line] ?? ['', '', ''])])
  })
  // The target's column is headed device, as the JSON report names the target's answer: readers match on both.
  const lines = table(['case / request', 'what', 'device', 'mock-nvr'], entries)
  // Rows shared by the same cases are shown together, under the names of those cases.
  const groups = new Map<string, Row[]>()
  for (const [row, cases] of casesOfRow) if (cases.length > 1) groups.set(JSON.stringify(cases), [...groups.get(JSON.stringify(cases)) ?? [], JSON.parse(row) as Row])
  for (const [casesKey, rows] of groups) {
    const cases = JSON.parse(casesKey) as string[]
    const others = differences.map(difference => difference.case).filter(name => !cases.includes(name))
    const which = others.length === 0 ? `all ${cases.length} cases` : others.length < cases.length ? `all cases but ${others.join(', ')}` : `${cases.length} cases: ${cases.join(', ')}`
    lines.push('', `  Alike in ${which}:`, ...table(['header', 'device', 'mock-nvr'], rows.map(row => [row])).map(line => `  ${line}`))
  }
  return lines
}

function answerRows ({ device, mock }: Difference): Row[] {
  const rows: Row[] = [['status, body', describeAnswer(device), describeAnswer(mock)]]
  // Only two error envelopes have error members to compare; else the status and body row says it all.
  if (device.errorCode === undefined || mock.errorCode === undefined) return rows
  if (device.errorCode !== mock.errorCode) rows.push(['errorCode', device.errorCode, mock.errorCode])
  if (device.errorMessage !== mock.errorMessage) rows.push(['errorMessage', device.errorMessage as string, mock.errorMessage as string])
  return rows
}

function headerRows ({ device, mock }: Difference): Row[] {
  return differingHeaders(device, mock).map(header => [header, device.headers[header] ?? '(none)', mock.headers[header] ?? '(none)'])
}

function describeAnswer (observation: Observation): string {
  return observation.status === null ? observation.envelope : `${observation.status}, ${observation.envelope}`
}

function differingHeaders (observation: Observation, other: Observation): string[] {
  return [...new Set([...Object.keys(observation.headers), ...Object.keys(other.headers)])].filter(name => observation.headers[name] !== other.headers[name])
}

/** Status and body kind, the error members and the headers that differ from the other side's, in one line. */
export function describeObservation (observation: Observation, other: Observation): string {
  const members = (['errorCode', 'errorMessage'] as const).filter(name => observation[name] !== other[name]).map(name => `${name}: ${observation[name] ?? '-'}`)
  return [describeAnswer(observation), ...members, ...differingHeaders(observation, other).map(name => `${name}: ${observation.headers[name] ?? '(none)'}`)].join('; ')
}

/** Columns padded to their widest cell (the last never padded); each entry's rows kept together, entries of several rows set apart by a blank line. */
function table (head: string[], entries: string[][][]): string[] {
  const rows = entries.flat()
  const widths = head.map((title, column) => Math.max(title.length, ...rows.map(row => (row[column] as string).length)))
  const format = (cells: string[]): string => `  ${cells.map((cell, column) => column === cells.length - 1 ? cell : cell.padEnd(widths[column] as number)).join('  ')}`.trimEnd()
  const spaced = entries.some(entry => entry.length > 1)
  return [format(head), format(widths.map(width => '-'.repeat(width))), ...entries.flatMap((entry, index) => [...(spaced && index > 0 ? [''] : []), ...entry.map(format)])]
}
