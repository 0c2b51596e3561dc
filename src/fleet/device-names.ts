export { deviceName } from '../config/device-name.js'

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
