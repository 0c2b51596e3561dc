import type { FlagRow, FlagTable } from './flag-rows.js'
import { OPENAPI_FLAGS, SERVE_FLAGS } from './serve-flags.js'
import { NOT_FOR_PROXY, OWN_AUTHORIZATION, PROXY_OWN_FLAGS, RECORD_FLAGS, VERIFY_FLAGS } from './target-flags.js'

/** What a command takes: its table, and the flags of other commands it refuses with a reason of its own. */
export interface CommandFlags {
  /** The command as a message names it: `serving` for the default command. */
  name: string
  flags: FlagTable
  refused?: Readonly<Record<string, string>>
  /** Whether -v/--version is one of its flags: serving's and proxy's, the commands that serve. */
  version?: boolean
}

export type CommandName = 'serve' | 'openapi' | 'verify' | 'record' | 'proxy'

/** Every command's flags, in one place: each command parses, refuses and helps from its entry. */
export const COMMAND_FLAGS: Readonly<Record<CommandName, CommandFlags>> = {
  serve: { name: 'serving', flags: SERVE_FLAGS, version: true },
  openapi: { name: 'openapi', flags: OPENAPI_FLAGS },
  verify: { name: 'verify', flags: VERIFY_FLAGS },
  record: { name: 'record', flags: RECORD_FLAGS },
  proxy: {
    name: 'proxy',
    // Its own flags first: --timeout and --ca are the target's, never a serve flag of the same name.
    flags: { ...PROXY_OWN_FLAGS, ...Object.fromEntries(Object.entries(SERVE_FLAGS).filter(([flag]) => !Object.hasOwn(NOT_FOR_PROXY, flag))) as Record<string, FlagRow> },
    refused: { ...NOT_FOR_PROXY, 'token-file': OWN_AUTHORIZATION },
    version: true
  }
}

/** The commands whose tables have this flag, as messages name them: `serving and proxy`. */
export function commandsTaking (flag: string): string[] {
  return Object.values(COMMAND_FLAGS).filter(({ flags }) => Object.hasOwn(flags, flag)).map(({ name }) => name)
}
