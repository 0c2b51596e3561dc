/** The frame WKT coordinates are in: pixels of a 1920×1080 image. */
export const FRAME = { width: 1920, height: 1080 } as const

type Point = [number, number]

const NUMBER = '-?\\d+(?:\\.\\d+)?'
const PAIR = `\\s*(${NUMBER})\\s+(${NUMBER})\\s*`
const LINESTRING = new RegExp(`^\\s*LINESTRING\\s*\\((${PAIR}(?:,${PAIR})+)\\)\\s*$`, 'i')
const POINT = new RegExp(`^\\s*POINT\\s*\\(${PAIR}\\)\\s*$`, 'i')

/**
 * The text moved by (dx, dy) pixels, each point kept inside the frame, if it is a WKT LINESTRING or POINT;
 * undefined for any other text (the seed leaves the geometry fields open, so a fixture may hold anything).
 */
export function moveWkt (text: string, dx: number, dy: number): string | undefined {
  const point = POINT.exec(text)
  if (point !== null) return `POINT(${format(moved([Number(point[1]), Number(point[2])], dx, dy))})`
  const line = LINESTRING.exec(text)
  if (line === null) return undefined
  const points = (line[1] as string).split(',').map(pair => pair.trim().split(/\s+/).map(Number) as Point)
  return `LINESTRING(${points.map(each => format(moved(each, dx, dy))).join(', ')})`
}

function moved ([x, y]: Point, dx: number, dy: number): Point {
  return [clamp(x + dx, FRAME.width), clamp(y + dy, FRAME.height)]
}

function clamp (value: number, max: number): number {
  return Math.min(max, Math.max(0, value))
}

function format ([x, y]: Point): string {
  return `${x} ${y}`
}
