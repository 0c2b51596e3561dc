import type { CountingLine } from '../../src/contract/schemas.js'

/** What a counter in a terminal detects: the classes data mock-nvr makes may hold. */
export const DEVICE_CLASSES = ['person', 'roller bags', 'shoulder bags', 'carry-ons']
const LINE_STRING = /^LINESTRING\((\d+ \d+(?:, \d+ \d+){1,3})\)$/
const POINT = /^POINT\((\d+) (\d+)\)$/
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

type Pixel = [number, number]

/**
 * What is wrong with a line made by mock-nvr, measured against a real NVR's formats (docs/fixtures.md), as
 * sentences; none when it keeps them. Written apart from the code that makes the data, so the two cannot share a slip.
 */
export function formatProblems (line: CountingLine): string[] {
  const problems: string[] = []
  const where = `${line.camera_id}/${line.id}`
  const points = LINE_STRING.exec(line.counting_line)?.[1]?.split(', ').map(pair => pair.split(' ').map(Number) as Pixel)
  const anchorMatch = POINT.exec(line.anchor)
  const anchor = anchorMatch === null ? undefined : [Number(anchorMatch[1]), Number(anchorMatch[2])] as Pixel
  if (points === undefined) problems.push(`${where}: counting_line ${line.counting_line} is not a LINESTRING of 2 to 4 whole points`)
  if (anchor === undefined) problems.push(`${where}: anchor ${line.anchor} is not a POINT of whole pixels`)
  for (const [x, y] of [...points ?? [], ...anchor === undefined ? [] : [anchor]]) {
    if (x >= 1920 || y >= 1080) problems.push(`${where}: ${x} ${y} is outside the 1920×1080 frame`)
  }
  if (points !== undefined && anchor !== undefined && sideOf(points, anchor) === 0) problems.push(`${where}: the anchor is on the line`)
  if (!DEVICE_CLASSES.includes(line.class)) problems.push(`${where}: class ${line.class} is not one a counter detects`)
  if (!Number.isInteger(line.max_age) || line.max_age < 15 || line.max_age > 30) problems.push(`${where}: max_age ${line.max_age} is not 15–30 frames`)
  for (const stamp of [line.created, line.updated]) if (!TIMESTAMP.test(stamp)) problems.push(`${where}: ${stamp} is not YYYY-MM-DDTHH:MM:SS.sssZ`)
  if (line.updated < line.created) problems.push(`${where}: updated before created`)
  return problems
}

/** -1 or 1 for the side of the line's nearest segment the point is on, 0 when it lies on the line. */
export function sideOf (points: Pixel[], [px, py]: Pixel): number {
  let nearest = { distance: Infinity, cross: 0 }
  for (let index = 1; index < points.length; index++) {
    const [ax, ay] = points[index - 1] as Pixel
    const [bx, by] = points[index] as Pixel
    const length = (bx - ax) ** 2 + (by - ay) ** 2
    const along = Math.max(0, Math.min(1, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / length))
    const distance = Math.hypot(px - ax - along * (bx - ax), py - ay - along * (by - ay))
    if (distance < nearest.distance) nearest = { distance, cross: (bx - ax) * (py - ay) - (by - ay) * (px - ax) }
  }
  return Math.sign(nearest.cross)
}

/** How many points each line's geometry has, as a set: data made to look real has both straight and bent lines. */
export function pointCounts (lines: readonly CountingLine[]): Set<number> {
  return new Set(lines.map(line => line.counting_line.split(',').length))
}
