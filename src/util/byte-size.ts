const KIB = 1024
const MIB = KIB * KIB

/** A size as a person reads it: bytes below 1 KiB, else KiB or MiB with at most one decimal (16 MiB, 1.5 KiB). */
export function formatBytes (bytes: number): string {
  if (bytes < KIB) return `${bytes} byte${bytes === 1 ? '' : 's'}`
  const [value, unit] = bytes < MIB ? [bytes / KIB, 'KiB'] : [bytes / MIB, 'MiB']
  return `${Number(value.toFixed(1))} ${unit}`
}
