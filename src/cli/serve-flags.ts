import { LIBRARY_DEFAULTS } from '../config/options.js'
import type { ResolvedOptions } from '../config/options-schema.js'
import { SETTING_ROWS, type OptionKind, type SettingFlag } from '../config/settings.js'
import type { FlagRow, FlagTable } from './flag-rows.js'

export type { OptionKind }

/** A serve flag with the key of the option it gives. */
export interface CliOption extends SettingFlag {
  key: keyof ResolvedOptions
}

/** Every flag of the CLI, from the settings' table: parsing, environment twins and --help all come from these rows. */
export const CLI_OPTIONS: readonly CliOption[] = SETTING_ROWS.flatMap(([key, { flag }]) => flag === undefined ? [] : [{ ...flag, key: key as keyof ResolvedOptions }])

/** The CLI's own defaults where they differ from the library's: a fixed port and info logs. */
export const CLI_DEFAULTS: Partial<ResolvedOptions> = { port: 8080, logLevel: 'info' }
export const DEFAULTS: ResolvedOptions = { ...LIBRARY_DEFAULTS, ...CLI_DEFAULTS }

/** The default --help and the README show: the value the code uses, or its words for it. */
export function shownDefault (option: CliOption): string {
  if (option.defaultText !== undefined) return option.defaultText
  // A switch's flag can only turn it on, so every switch is off by default (test/config/options.batched.test.ts checks).
  if (option.kind === 'switch') return 'off'
  return String(DEFAULTS[option.key])
}

/** MOCK_NVR_ + the flag in upper snake case; a repeatable flag's twin is plural and comma-separated. */
export function envName ({ flag, kind }: CliOption): string {
  return `MOCK_NVR_${flag.toUpperCase().replaceAll('-', '_')}${repeatable(kind) ? 'S' : ''}`
}

export function repeatable (kind: OptionKind): boolean {
  return kind === 'list' || kind === 'scopes'
}

/** A serve flag as a row of its command's table: its help line carries its default, and its twin is named. */
function serveRow (option: CliOption): FlagRow {
  return {
    ...(option.kind === 'switch' ? {} : { value: option.value as string }),
    ...(repeatable(option.kind) ? { multiple: true } : {}),
    help: [`${option.help} (default: ${shownDefault(option)})`],
    default: shownDefault(option),
    twin: envName(option)
  }
}

/** Serving's flags, as every command's table has them. */
export const SERVE_FLAGS: FlagTable = Object.fromEntries(CLI_OPTIONS.map(option => [option.flag, serveRow(option)]))

/** The serve flags that decide the data `mock-nvr openapi` takes its examples from: the only ones it takes. */
export const OPENAPI_FLAGS: FlagTable = Object.fromEntries(['fixtures', 'generate', 'seed'].map(flag => [flag, SERVE_FLAGS[flag] as FlagRow]))
