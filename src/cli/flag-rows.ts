/** A flag of a command's table: the placeholder of its value (none for a switch), whether it repeats, its help lines. */
export interface FlagRow {
  value?: string
  multiple?: boolean
  help: readonly string[]
}

/** A command's flags by name; parsing, the flags' messages and the command's --help all read it. */
export type FlagTable = Readonly<Record<string, FlagRow>>

/** The flags that reach the target, which verify, record and proxy share: their help is written here once. */
export const TARGET_LINK_FLAGS = {
  target: { value: 'URL', help: ['the real NVR\'s base URL, e.g. https://nvr.local:8443 (without /nvr/v1)'] },
  timeout: { value: 'MS', help: ['time each request to the target may take (default: 10000)'] },
  ca: { value: 'FILE', help: ['trust this PEM certificate for an https:// target (e.g. the target\'s self-signed one)'] },
  insecure: { help: ['do not check the https:// target\'s certificate (warned about every time)'] }
} as const satisfies FlagTable

/** The help's lines for a table: `--flag VALUE` in a column, then its help. */
export function helpLines (table: FlagTable): string[] {
  return Object.entries(table).flatMap(([flag, { value, help }]) => {
    const name = `--${flag}${value === undefined ? '' : ` ${value}`}`
    return help.map((line, index) => `  ${(index === 0 ? name : '').padEnd(21)} ${line}`)
  })
}
