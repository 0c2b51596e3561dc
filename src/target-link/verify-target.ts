import type { CameraLines } from '../data/dataset.js'
import type { Difference, Observation, VerifyReport } from '../errors/target-report.js'

export type { Difference, VerifyReport }
import { NoAnswerError } from '../target-client/target-client.js'
import { TargetRun } from './target-run.js'
import type { TargetLinkOptions } from '../target-client/target-connection.js'
import { MockAnswers } from './mock-answers.js'
import { noAnswer, observe, sameObservation } from './observation.js'
import { buildProbes, probeHeaders, type ProbeData } from './probe-cases.js'
import { readTarget, type CameraReading, type ReadDeparture } from './read-target.js'
import { JSON_CONTENT_TYPE } from '../contract/envelope.js'

/**
 * Checks the target, a real NVR (or any implementation of the API), against the contract, and compares its answers to
 * the cases the spec leaves open with mock-nvr's. Throws TargetLinkError when the target cannot be used.
 */
export async function verifyTarget (options: TargetLinkOptions): Promise<VerifyReport> {
  const time = new Date().toISOString()
  const run = new TargetRun(options)
  try {
    const cameras = [...new Set(options.cameras)]
    const reading = await readTarget(run, cameras)
    const probeData = chooseProbeData(reading.cameras)
    const differences = [...readDifferences(reading.departures), ...(probeData === undefined ? [] : await compareUnspecified(run, reading.cameras, probeData))]
    return run.redactAll({ target: run.target, time, cameras, probedCamera: probeData?.camera ?? null, violations: reading.violations, differences })
  } finally {
    await run.end()
  }
}

async function compareUnspecified (run: TargetRun, cameras: CameraReading[], probeData: ProbeData): Promise<Difference[]> {
  const mock = await MockAnswers.on(cameras.map(camera => ({ id: camera.id, lines: camera.validLines }) satisfies CameraLines), run.connection.token)
  const differences: Difference[] = []
  try {
    for (const probe of buildProbes(probeData)) {
      const headers = probeHeaders(probe, run.connection.token)
      const answered = await askTarget(run, probe.method, probe.path, headers)
      const expected = await mock.observe(probe.method, probe.path, headers)
      if (!sameObservation(answered, expected)) differences.push({ case: probe.case, request: `${probe.method} ${probe.path}`, device: answered, mock: expected })
    }
  } finally {
    await mock.close()
  }
  return differences
}

/** mock-nvr's answer to a read that succeeds, as a read's departure is compared with it. */
const MOCK_READ: Observation = { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE }, envelope: 'success envelope' }

/** The reads that depart from mock-nvr's answers, one difference for each kind of read and way of departing, with the first such request. */
function readDifferences (departures: ReadDeparture[]): Difference[] {
  const groups = new Map<string, ReadDeparture[]>()
  for (const departure of departures) {
    const key = JSON.stringify([departure.kind, departure.target])
    groups.set(key, [...groups.get(key) ?? [], departure])
  }
  return [...groups.values()].map(group => {
    const [first] = group as [ReadDeparture]
    const alike = group.length > 1 ? ` (and ${group.length - 1} more alike)` : ''
    return { case: `${first.kind} answer${alike}`, request: first.request, device: first.target, mock: MOCK_READ }
  })
}

async function askTarget (run: TargetRun, method: string, path: string, headers: Record<string, string>): Promise<Observation> {
  try {
    const answer = await run.send({ method, path, headers }, false)
    return observe(answer.status, answer.headers, answer.body, run.redact)
  } catch (error) {
    if (!(error instanceof NoAnswerError)) throw error
    return noAnswer(error.message)
  }
}

/** A camera that answered its list, and a line id of another camera that this one does not use. */
function chooseProbeData (cameras: CameraReading[]): ProbeData | undefined {
  const camera = cameras.find(candidate => candidate.listed)
  if (camera === undefined) return undefined
  const own = new Set(camera.validLines.map(line => line.id))
  const foreign = cameras.flatMap(other => other.id === camera.id ? [] : other.validLines).find(line => !own.has(line.id))
  return { camera: camera.id, ...(foreign === undefined ? {} : { foreignLine: foreign.id }) }
}
