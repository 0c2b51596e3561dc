/**
 * The name of a fleet's device by its place, from 0, in a fleet of `count`: nvr-001, nvr-002 …, padded to three
 * digits or to the width of the fleet's largest number, whichever is wider (nvr-0001 … nvr-1000), so the names
 * sort as text in the order of the devices.
 */
export function deviceName (index: number, count: number): string {
  return `nvr-${String(index + 1).padStart(Math.max(3, String(count).length), '0')}`
}

/**
 * The seed of a device's generated data, from the fleet's seed and the device's name (FNV-1a over both):
 * each device has its own data, and the same seed and name give the same data again.
 */
export function deviceSeed (fleetSeed: number, name: string): number {
  let hash = 0x811c9dc5
  for (const char of `${fleetSeed}/${name}`) {
    hash ^= char.codePointAt(0) as number
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash
}
