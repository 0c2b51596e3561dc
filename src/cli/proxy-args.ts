import type { ProxyOptions } from '../target-proxy/target-proxy.js'
import { parseTarget } from '../target-client/target-connection.js'
import { serveOptions } from './args.js'
import { COMMAND_FLAGS } from './command-flags.js'
import { helpLines } from './flag-rows.js'
import { readFlags } from './read-flags.js'
import { readCaFile } from './ca-file.js'
import { NOT_FOR_PROXY, OWN_AUTHORIZATION, PROXY_OWN_FLAGS } from './target-flags.js'
import { TARGET_TOKEN_VARIABLE } from './target-token.js'
import { parseMilliseconds } from './milliseconds.js'
import type { ResolvedOptions } from '../config/options-schema.js'
import { type TargetLinkError, UsageError } from '../errors/errors.js'

/** `mock-nvr proxy`'s command line: what it forwards to, and the serve options it takes besides. */
export interface ProxyCommand {
  help: boolean
  version: boolean
  proxy: ProxyOptions
  options: Partial<ResolvedOptions>
}

/** The arguments after `mock-nvr proxy`, read by proxy's table: its own flags and the serve flags it takes. */
export async function parseProxyArgs (argv: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<ProxyCommand> {
  const read = readFlags(argv, COMMAND_FLAGS.proxy)
  if (read.help || read.version) return { help: read.help, version: read.version, proxy: { target: '' }, options: {} }
  const unexpected = read.positionals[0]
  if (unexpected !== undefined) throw new UsageError(`unexpected argument '${unexpected.value}'`)
  if (env[TARGET_TOKEN_VARIABLE] !== undefined) throw new UsageError(`${TARGET_TOKEN_VARIABLE} does not apply to proxy: ${OWN_AUTHORIZATION}; unset it`)
  const options = serveOptions(read.values, env, COMMAND_FLAGS.proxy)
  const values = read.values as ReadonlyMap<string, string | true>
  const target = values.get('target') as string | undefined
  if (target === undefined) throw new UsageError('--target URL is required: the real NVR to forward /nvr/v1 to')
  const timeout = values.has('timeout') ? parseMilliseconds('timeout', values.get('timeout') as string) : undefined
  let base: URL
  try {
    base = parseTarget(target)
  } catch (error) {
    throw new UsageError(`--target: ${(error as TargetLinkError).message}`)
  }
  const ca = values.has('ca') ? await readCaFile(values.get('ca') as string) : undefined
  if (ca !== undefined && base.protocol !== 'https:') throw new UsageError('--ca: a CA certificate is only of use with an https:// target')
  const record = values.get('record') as string | undefined
  const proxy: ProxyOptions = {
    target,
    ...(timeout === undefined ? {} : { timeout }),
    ...(ca === undefined ? {} : { ca }),
    ...(values.get('insecure') === true ? { insecure: true } : {}),
    ...(record === undefined ? {} : { record })
  }
  return { help: false, version: false, proxy, options }
}

export const PROXY_HELP = [
  'Usage: mock-nvr proxy --target URL [--record FILE] [server options]',
  '',
  'Serves /nvr/v1 by forwarding each request to the target, a real NVR, with the client\'s own Authorization',
  'header, and answers the target\'s status, headers and body unchanged, checking each answer against the',
  'contract as it passes (violations are logged once per path, and counted in the journal and /healthz).',
  'Latency, faults and Prefer apply in front of the target. The server options of mock-nvr --help apply,',
  ...refusedLines(),
  '',
  ...helpLines(PROXY_OWN_FLAGS),
  ''
].join('\n')

// The help's words for NOT_FOR_PROXY, grouped by reason.
function refusedLines (): string[] {
  return [...new Set(Object.values(NOT_FOR_PROXY))].map(reason => {
    const flags = Object.keys(NOT_FOR_PROXY).filter(flag => NOT_FOR_PROXY[flag] === reason).map(flag => `--${flag}`)
    return `but for ${flags.slice(0, -1).join(', ')} and ${flags.at(-1) as string}: ${reason};`
  })
}
