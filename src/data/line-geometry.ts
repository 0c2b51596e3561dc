// A real NVR's geometry, as text: a counting line is a WKT LINESTRING and its anchor a WKT POINT, in whole
// pixels of the camera's frame. The anchor lies on the side of the line that counts as IN.

/** A point in pixels: x to the right, y down, from the frame's top left corner. */
export type Pixel = readonly [x: number, y: number]

/** The frame of the data mock-nvr makes: a 1080p camera. */
export const FRAME = { width: 1920, height: 1080 } as const

/** `LINESTRING(x y, x y, …)`. */
export function lineString (points: readonly Pixel[]): string {
  // A loop, not map and join: --generate writes a million of these.
  let text = 'LINESTRING('
  for (let index = 0; index < points.length; index++) {
    const [x, y] = points[index] as Pixel
    text += index === 0 ? `${x} ${y}` : `, ${x} ${y}`
  }
  return `${text})`
}

/** `POINT(x y)`. */
export function wktPoint ([x, y]: Pixel): string {
  return `POINT(${x} ${y})`
}

/**
 * A point `distance` pixels from the middle of the line's middle segment, square to it: on the left of the
 * direction of travel from first to last point (as seen on screen) when `side` is 1, on the right when it is -1.
 */
export function pointBeside (points: readonly Pixel[], side: 1 | -1, distance: number): Pixel {
  const middle = Math.floor((points.length - 1) / 2)
  const [ax, ay] = points[middle] as Pixel
  const [bx, by] = points[middle + 1] as Pixel
  const length = Math.sqrt((bx - ax) ** 2 + (by - ay) ** 2)
  const offset = side * distance / length
  return [Math.round((ax + bx) / 2 + (by - ay) * offset), Math.round((ay + by) / 2 - (bx - ax) * offset)]
}
