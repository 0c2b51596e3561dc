import { writeFileAtomically } from '../target-client/fixture-file.js'

/** One device as the manifest lists it. */
export interface ManifestDevice {
  name: string
  url: string
  cameras: string[]
  /** Its health at the start and the next changes its schedule makes (the timeline). */
  health?: { state: string, next: unknown[] }
}

/** Writes {"devices":[{name, url, cameras}]} in one step: a reader finds the old file or the whole new one. */
export async function writeManifest (file: string, devices: readonly ManifestDevice[]): Promise<void> {
  const text = `${JSON.stringify({ devices: devices.map(({ name, url, cameras, health }) => ({ name, url, cameras, ...(health === undefined ? {} : { health }) })) }, null, 2)}\n`
  await writeFileAtomically(file, text, { replace: true })
}
