/** A flag of a command's table: the placeholder of its value (none for a switch), whether it repeats, its help lines. */
export interface FlagRow {
  value?: string
  multiple?: boolean
  help: readonly string[]
  /** Its default in words, for a message about an empty value; none for a flag a command requires. */
  default?: string
  /** Its environment twin, which --help names. */
  twin?: string
}

/** A command's flags by name; parsing, the flags' messages and the command's --help all read it. */
export type FlagTable = Readonly<Record<string, FlagRow>>

/** A line of --help that is no flag of the table: `-h, --help` and its words. */
export type OwnLine = readonly [name: string, help: string]

export const HELP_LINE: OwnLine = ['-h, --help', 'show this help']

/** The help's lines for a table and the command's own lines after it: names in a column, then help, then the twin. */
export function helpLines (table: FlagTable, own: readonly OwnLine[] = [HELP_LINE]): string[] {
  const rows = Object.entries(table).map(([flag, { value, help, twin }]) => ({ name: `--${flag}${value === undefined ? '' : ` ${value}`}`, help, twin }))
  const all = [...rows, ...own.map(([name, help]) => ({ name, help: [help], twin: undefined }))]
  // A name longer than the column still gets a space before its help.
  const width = Math.min(25, Math.max(19, ...all.map(({ name }) => name.length)))
  return all.flatMap(({ name, help, twin }) => [
    ...help.map((line, index) => `  ${(index === 0 ? name : '').padEnd(width)} ${line}`),
    ...(twin === undefined ? [] : [`  ${''.padEnd(width)} env: ${twin}`])
  ])
}
