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
