/** Edits (insert, delete, replace, swap two neighbours) that turn one word into the other. */
export function editDistance (a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => i === 0 ? j : j === 0 ? i : 0))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cell = (x: number, y: number): number => (rows[x] as number[])[y] as number
      let distance = Math.min(cell(i - 1, j) + 1, cell(i, j - 1) + 1, cell(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, cell(i - 2, j - 2) + 1)
      ;(rows[i] as number[])[j] = distance
    }
  }
  return (rows[a.length] as number[])[b.length] as number
}

/**
 * The known name closest to a word, when it is close enough to be what was meant: past one edit in a short word,
 * or two in a longer one, a suggestion is a guess that misleads. The first of equally close names.
 */
export function closestName (word: string, known: Iterable<string>): string | undefined {
  let best: { name: string, distance: number } | undefined
  for (const name of known) {
    const distance = editDistance(word, name)
    if (best === undefined || distance < best.distance) best = { name, distance }
  }
  return best !== undefined && best.distance <= (word.length >= 4 ? 2 : 1) ? best.name : undefined
}

/**
 * What a key an object does not take is told, in every file and body the user writes: "is not a known field",
 * and the closest key it takes (`schema`'s properties), if one is close. `pointer` is the key's JSON Pointer.
 */
export function unknownFieldMessage (pointer: string, schema: object): string {
  const key = (pointer.split('/').at(-1) as string).replaceAll('~1', '/').replaceAll('~0', '~')
  const closest = closestName(key, Object.keys((schema as { properties?: Record<string, unknown> }).properties ?? {}))
  return `is not a known field${closest === undefined ? '' : `; did you mean ${JSON.stringify(closest)}?`}`
}
