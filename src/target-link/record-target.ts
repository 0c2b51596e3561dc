import { ServedCamera } from '../data/data-store.js'
import type { FixtureData } from '../contract/schemas.js'
import { TargetRun } from './target-run.js'
import type { TargetLinkOptions } from '../target-client/target-connection.js'
import { readTarget } from './read-target.js'
import { RecordRefusedError } from '../errors/errors.js'

/** What a recording holds, with the cameras whose list mock-nvr will serve as the same JSON in other bytes. */
export interface Recording {
  data: FixtureData
  /** Cameras whose list the target formats otherwise than mock-nvr (key order, spacing, number form). */
  reformatted: string[]
  /** How the target's answers depart from mock-nvr's where the seed does not rule (another Content-Type, extra envelope members, …), each once. */
  departures: string[]
}

/**
 * Reads the named cameras and their lines into fixture data, lines in the target's order exactly as sent.
 * All or nothing: any violation throws RecordRefusedError; an unusable target throws TargetLinkError.
 */
export async function recordTarget (options: TargetLinkOptions): Promise<FixtureData> {
  return (await recordWithNotes(options)).data
}

export async function recordWithNotes (options: TargetLinkOptions): Promise<Recording> {
  const time = new Date().toISOString()
  const run = new TargetRun(options)
  try {
    const cameras = [...new Set(options.cameras)]
    const reading = await readTarget(run, cameras)
    if (reading.violations.length > 0) {
      throw new RecordRefusedError(run.redactAll({ target: run.target, time, cameras, probedCamera: null, violations: reading.violations, differences: [] }))
    }
    const reformatted = reading.cameras
      .filter(camera => !new ServedCamera(camera.validLines).listBody.equals(camera.listBody as Buffer))
      .map(camera => camera.id)
    return {
      data: { cameras: cameras.map(id => ({ id })), counting_lines: reading.cameras.flatMap(camera => camera.validLines) },
      reformatted,
      departures: [...new Set(reading.departures.flatMap(read => read.departures))]
    }
  } finally {
    await run.end()
  }
}
