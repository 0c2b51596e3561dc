// @ts-check
// A counting line's geometry, in the two forms the page draws:
// - WKT, as real NVRs send it: `LINESTRING(x y, x y, …)` in pixels of the camera's frame, with an anchor
//   `POINT(x y)` on the side of the line that counts as IN (docs/fixtures.md, "The device's formats");
// - `x,y;x,y;…` with each coordinate a fraction of the frame, in 0–1.
// Any other text is listed, not drawn, with the reason.

/** @typedef {[number, number]} Point an x and a y */
/** @typedef {{ pixels: Point[], fractions?: undefined, reason?: undefined } | { fractions: Point[], pixels?: undefined, reason?: undefined } | { reason: string, pixels?: undefined, fractions?: undefined }} LineGeometry */
/** @typedef {{ pixel: Point, reason?: undefined } | { reason: string, pixel?: undefined }} AnchorPoint */

/** @type {Point[]} The frame sizes cameras use, smallest first: a camera is drawn in the first that holds all its points. */
export const FRAMES = [[1280, 720], [1920, 1080], [2560, 1440], [3840, 2160]]
const [LARGEST_WIDTH, LARGEST_HEIGHT] = /** @type {Point} */ (FRAMES.at(-1))
const LARGEST = `${LARGEST_WIDTH}×${LARGEST_HEIGHT}`

const NUMBER = '[-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?'
const LINE_STRING = /^\s*LINESTRING\s*\((.*)\)\s*$/is
const WKT_PAIR = new RegExp(`^\\s*(${NUMBER})\\s+(${NUMBER})\\s*$`)
const POINT = new RegExp(`^\\s*POINT\\s*\\(\\s*(${NUMBER})\\s+(${NUMBER})\\s*\\)\\s*$`, 'i')
const FRACTION = /^\s*-?(\d+(\.\d*)?|\.\d+)\s*$/

/**
 * A line's geometry, read: `{ pixels }` for a WKT LINESTRING, `{ fractions }` for x,y pairs in 0–1 (each a list of
 * [x, y]), or `{ reason }`, a sentence saying why it is not drawn.
 * @param {unknown} text
 * @returns {LineGeometry}
 */
export function readLine (text) {
  if (typeof text !== 'string') return { reason: 'counting_line is not text' }
  const wkt = LINE_STRING.exec(text)
  if (wkt !== null) {
    const pairs = (wkt[1] ?? '').split(',').map(pair => WKT_PAIR.exec(pair))
    if (pairs.some(pair => pair === null)) return { reason: 'the LINESTRING does not hold x y points (two numbers each)' }
    /** @type {Point[]} */
    const pixels = pairs.map(pair => [Number(pair?.[1]), Number(pair?.[2])])
    if (pixels.length < 2) return { reason: 'a LINESTRING needs two points or more' }
    if (!pixels.every(inLargestFrame)) return { reason: `a point lies outside the largest frame, ${LARGEST}` }
    return { pixels }
  }
  const pairs = text.split(';').map(pair => pair.split(','))
  if (pairs.every(pair => pair.length === 2 && pair.every(part => FRACTION.test(part)))) {
    /** @type {Point[]} */
    const fractions = pairs.map(pair => [Number(pair[0]), Number(pair[1])])
    if (fractions.length < 2) return { reason: 'x,y pairs need two points or more' }
    if (!fractions.every(([x, y]) => x >= 0 && x <= 1 && y >= 0 && y <= 1)) return { reason: 'x,y pairs must lie in 0–1' }
    return { fractions }
  }
  return { reason: 'counting_line is neither WKT LINESTRING nor x,y;x,y pairs' }
}

/**
 * An anchor, read: `{ pixel }` for a WKT POINT in the largest frame, or `{ reason }` why it is not drawn.
 * @param {unknown} text
 * @returns {AnchorPoint}
 */
export function readAnchor (text) {
  const match = typeof text === 'string' ? POINT.exec(text) : null
  if (match === null) return { reason: 'anchor is not a WKT POINT(x y)' }
  /** @type {Point} */
  const pixel = [Number(match[1]), Number(match[2])]
  return inLargestFrame(pixel) ? { pixel } : { reason: `anchor lies outside the largest frame, ${LARGEST}` }
}

/** @param {Point} point */
function inLargestFrame ([x, y]) {
  return x >= 0 && y >= 0 && x <= LARGEST_WIDTH && y <= LARGEST_HEIGHT
}

/**
 * The smallest frame, [width, height], that holds every point (each within the largest frame).
 * @param {Point[]} pixels
 * @returns {Point}
 */
export function frameFor (pixels) {
  return FRAMES.find(([width, height]) => pixels.every(([x, y]) => x <= width && y <= height)) ?? [LARGEST_WIDTH, LARGEST_HEIGHT]
}

/**
 * Where a line's IN side is: the middle of the segment nearest the anchor, and the unit vector square to that
 * segment pointing to the anchor's side. Null when the anchor lies on the line, so neither side is IN.
 * @param {Point[]} points two or more
 * @param {Point} anchor
 * @returns {{ from: Point, towards: Point } | null}
 */
export function inSide (points, anchor) {
  /** @type {{ distance: number, a: Point, b: Point } | null} */
  let nearest = null
  for (let index = 1; index < points.length; index++) {
    const [a, b] = /** @type {[Point, Point]} */ ([points[index - 1], points[index]])
    const distance = distanceToSegment(anchor, a, b)
    if (nearest === null || distance < nearest.distance) nearest = { distance, a, b }
  }
  if (nearest === null) return null
  const { distance, a, b } = nearest
  // Of the two normals of a→b, the one on the anchor's side: the sign of the cross product says which.
  const side = Math.sign((b[0] - a[0]) * (anchor[1] - a[1]) - (b[1] - a[1]) * (anchor[0] - a[0]))
  // On the line, or in line with a segment beyond its end: no side is IN.
  if (distance === 0 || side === 0) return null
  const length = Math.hypot(b[0] - a[0], b[1] - a[1])
  return {
    from: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2],
    towards: [-side * (b[1] - a[1]) / length, side * (b[0] - a[0]) / length]
  }
}

/**
 * @param {Point} point
 * @param {Point} start
 * @param {Point} end
 */
function distanceToSegment ([px, py], [ax, ay], [bx, by]) {
  const squared = (bx - ax) ** 2 + (by - ay) ** 2
  const along = squared === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / squared))
  return Math.hypot(px - ax - along * (bx - ax), py - ay - along * (by - ay))
}

/**
 * A small arrowhead at `to`, pointing away from `from`, as a polygon's points.
 * @param {Point} from
 * @param {Point} to
 * @param {number} size
 */
export function arrowHead (from, to, size) {
  const angle = Math.atan2(to[1] - from[1], to[0] - from[0])
  const corner = (/** @type {number} */ turn) => [to[0] - size * Math.cos(angle + turn), to[1] - size * Math.sin(angle + turn)]
  return [to, corner(0.45), corner(-0.45)].map(point => point.map(value => value.toFixed(2)).join(',')).join(' ')
}
