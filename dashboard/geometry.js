// A counting line's geometry: "x,y;x,y;…" with each coordinate in 0–1 can be drawn; anything else is listed as text.

const NUMBER = /^\s*-?(\d+(\.\d*)?|\.\d+)\s*$/

/** The points of a line as [x, y] pairs in 0–1, or null when its geometry is in another form. */
export function parsePoints (geometry) {
  if (typeof geometry !== 'string') return null
  const points = []
  for (const pair of geometry.split(';')) {
    const parts = pair.split(',')
    if (parts.length !== 2 || !parts.every(part => NUMBER.test(part))) return null
    const [x, y] = parts.map(Number)
    if (x < 0 || x > 1 || y < 0 || y > 1) return null
    points.push([x, y])
  }
  return points.length >= 2 ? points : null
}

/** A small arrowhead at the end of the last segment, as a polygon's points in frame units. */
export function arrowHead (from, to, size) {
  const angle = Math.atan2(to[1] - from[1], to[0] - from[0])
  const corner = turn => [to[0] - size * Math.cos(angle + turn), to[1] - size * Math.sin(angle + turn)]
  return [to, corner(0.45), corner(-0.45)].map(point => point.map(value => value.toFixed(2)).join(',')).join(' ')
}
