import type { CountingLine } from '../contract/schemas.js'
import { checkLineAnswer, checkListAnswer, type Violation } from '../target-client/contract-check.js'
import { unruledDepartures } from '../target-client/answer-shape.js'
import { NoAnswerError, type TargetAnswer } from '../target-client/target-client.js'
import { observe, type Observation } from './observation.js'
import type { TargetRun } from './target-run.js'
import { linePath, listPath } from '../target-client/target-connection.js'

/** What one camera's list answered, as far as it keeps the contract. */
export interface CameraReading {
  id: string
  /** Whether the list answered 200 with a success envelope holding an array. */
  listed: boolean
  /** The list answer's body, as sent, when it was listed. */
  listBody?: Buffer
  /** The lines that keep the contract, as sent, in the target's order. */
  validLines: CountingLine[]
}

/** A read that kept the contract but departs from mock-nvr's answer where the seed does not rule. */
export interface ReadDeparture {
  kind: 'list' | 'retrieve'
  request: string
  /** Each departure in one phrase: another Content-Type, a byte-order mark, extra envelope members. */
  departures: string[]
  /** The answer as verify compares it: its status, its Content-Type and what its body is. */
  target: Observation
}

export interface TargetReading {
  cameras: CameraReading[]
  violations: Violation[]
  departures: ReadDeparture[]
}

/** Reads every camera's list and every line of it by id, checking each answer against the contract. */
export async function readTarget (run: TargetRun, cameras: readonly string[]): Promise<TargetReading> {
  const reading: TargetReading = { cameras: [], violations: [], departures: [] }
  for (const camera of cameras) {
    const path = listPath(camera)
    const request = `GET ${path}`
    const context = { camera, request, redact: run.redact }
    const answer = await sendOrReport(run, path, violation => reading.violations.push({ camera, line: null, request, path: '', problem: violation }))
    if (answer === undefined) {
      reading.cameras.push({ id: camera, listed: false, validLines: [] })
      continue
    }
    const checked = checkListAnswer(answer, context)
    reading.violations.push(...checked.violations)
    if (checked.listed) noteDepartures(reading, 'list', request, answer, run.redact)
    const failedRetrieve = new Set<string>()
    for (const { id, line } of checked.lines) {
      const linePathname = linePath(camera, id)
      const lineRequest = `GET ${linePathname}`
      const lineAnswer = await sendOrReport(run, linePathname, problem => reading.violations.push({ camera, line: id, request: lineRequest, path: '', problem }))
      const violations = lineAnswer === undefined ? undefined : checkLineAnswer(lineAnswer, line, { camera, line: id, request: lineRequest, redact: run.redact })
      if (violations !== undefined) reading.violations.push(...violations)
      if (violations?.length === 0) noteDepartures(reading, 'retrieve', lineRequest, lineAnswer as TargetAnswer, run.redact)
      if (violations === undefined || violations.length > 0) failedRetrieve.add(id)
    }
    reading.cameras.push({
      id: camera,
      listed: checked.listed,
      ...(checked.listed ? { listBody: answer.body } : {}),
      validLines: checked.validLines.filter(line => !failedRetrieve.has(line.id))
    })
  }
  return reading
}

function noteDepartures (reading: TargetReading, kind: ReadDeparture['kind'], request: string, answer: TargetAnswer, redact: (text: string) => string): void {
  const departures = unruledDepartures(answer.headers['content-type'], answer.body, redact)
  if (departures.length === 0) return
  const { status, headers, envelope } = observe(answer.status, answer.headers, answer.body, redact)
  const contentType = headers['content-type']
  reading.departures.push({ kind, request, departures, target: { status, headers: contentType === undefined ? {} : { 'content-type': contentType }, envelope } })
}

async function sendOrReport (run: TargetRun, path: string, report: (problem: string) => void) {
  try {
    return await run.send({ method: 'GET', path })
  } catch (error) {
    if (!(error instanceof NoAnswerError)) throw error
    report(`no answer: ${error.message}`)
    return undefined
  }
}
