/**
 * The name of a fleet's device by its place, from 0, in a fleet of `count`: nvr-001, nvr-002 …, padded to three
 * digits or to the width of the fleet's largest number, whichever is wider (nvr-0001 … nvr-1000), so the names
 * sort as text in the order of the devices.
 */
export function deviceName (index: number, count: number): string {
  return `nvr-${String(index + 1).padStart(Math.max(3, String(count).length), '0')}`
}
