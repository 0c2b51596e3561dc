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

export type CommandName = 'serve' | 'openapi' | 'verify' | 'record' | 'proxy' | 'mcp'

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
  },
  // Serving's flags start the mock-nvr it speaks for; --connect steers one already running instead.
  mcp: {
    name: 'mcp',
    flags: {
      connect: { value: 'URL', help: ['steer the mock-nvr already running at URL (its admin address: a single', 'one\'s own, a fleet\'s control address) instead of starting one; with', '--admin-token, or its variable, as its bearer token'] },
      ...SERVE_FLAGS
    },
    version: true
  }
}

/** The commands whose tables have this flag, as messages name them: `serving and proxy` (mcp, which takes serving's, only for its own). */
export function commandsTaking (flag: string): string[] {
  return Object.entries(COMMAND_FLAGS)
    .filter(([command, { flags }]) => Object.hasOwn(flags, flag) && !(command === 'mcp' && Object.hasOwn(SERVE_FLAGS, flag)))
    .map(([, { name }]) => name)
}
