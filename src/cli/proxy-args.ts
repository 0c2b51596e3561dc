import type { ProxyOptions } from '../target-proxy/target-proxy.js'
import { parseTarget } from '../target-client/target-connection.js'
import { CLI_OPTIONS, envName, type CliCommand } from './args.js'
import { readCaFile } from './ca-file.js'
import { TARGET_TOKEN_VARIABLE } from './target-token.js'
import { parseMilliseconds } from './milliseconds.js'
import { type TargetLinkError, UsageError } from '../errors/errors.js'

// Each flag that takes a value, with the placeholder its messages show.
const VALUE_FLAGS: Record<string, string> = { target: 'URL', record: 'FILE', ca: 'FILE', timeout: 'MS' }
const SWITCHES = ['insecure'] as const
// The target's data and tokens are used: these serve options have nothing to act on.
const NOT_FOR_PROXY = ['fixtures', 'generate', 'watch', 'token', 'scoped-token', 'rate-limit']
// The proxy holds no token of the target's: one would let anyone who reaches the proxy in.
const OWN_AUTHORIZATION = 'each client\'s own Authorization is forwarded to the target'

/** `mock-nvr proxy`'s own flags taken out of argv; the rest are the usual server flags. */
export async function parseProxyArgs (argv: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ proxy: ProxyOptions, serveArgv: string[], help: boolean }> {
  const values: Record<string, string> = {}
  const switches = new Set<string>()
  const serveArgv: string[] = []
  let help = false
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string
    const [name, inline] = arg.startsWith('--') ? splitFlag(arg.slice(2)) : [undefined, undefined]
    if (arg === '--help' || arg === '-h') help = true
    else if (Object.hasOwn(VALUE_FLAGS, name as string)) {
      const value = inline ?? argv[++index]
      if (value === undefined || value === '') throw new UsageError(`--${name as string} needs a value: --${name as string} ${VALUE_FLAGS[name as string] as string}`)
      values[name as string] = value
    } else if ((SWITCHES as readonly string[]).includes(name as string)) switches.add(name as string)
    else if (NOT_FOR_PROXY.includes(name as string)) throw new UsageError(`--${name as string} does not apply to proxy: the target's data and tokens are used`)
    else if (name === 'token-file') throw new UsageError(`--token-file does not apply to proxy: ${OWN_AUTHORIZATION}`)
    else serveArgv.push(arg)
  }
  if (help) return { proxy: { target: '' }, serveArgv, help }
  if (env[TARGET_TOKEN_VARIABLE] !== undefined) throw new UsageError(`${TARGET_TOKEN_VARIABLE} does not apply to proxy: ${OWN_AUTHORIZATION}; unset it`)
  if (values.target === undefined) throw new UsageError('--target URL is required: the real NVR to forward /nvr/v1 to')
  const timeout = values.timeout === undefined ? undefined : parseMilliseconds('timeout', values.timeout)
  let base: URL
  try {
    base = parseTarget(values.target)
  } catch (error) {
    throw new UsageError(`--target: ${(error as TargetLinkError).message}`)
  }
  const ca = values.ca === undefined ? undefined : await readCaFile(values.ca)
  if (ca !== undefined && base.protocol !== 'https:') throw new UsageError('--ca: a CA certificate is only of use with an https:// target')
  const proxy: ProxyOptions = {
    target: values.target,
    ...(timeout === undefined ? {} : { timeout }),
    ...(ca === undefined ? {} : { ca }),
    ...(switches.has('insecure') ? { insecure: true } : {}),
    ...(values.record === undefined ? {} : { record: values.record })
  }
  return { proxy, serveArgv, help }
}

/**
 * The environment twins of the flags proxy refuses, refused in the same words by the variable's name (the flags
 * themselves never get this far). A switch's twin set off, MOCK_NVR_WATCH=false, asks for nothing.
 */
export function refuseDataTwins (command: CliCommand): void {
  if (!('options' in command)) return
  for (const option of CLI_OPTIONS) {
    const value = command.options[option.key]
    if (NOT_FOR_PROXY.includes(option.flag) && value !== undefined && value !== false) {
      throw new UsageError(`${envName(option)} does not apply to proxy: the target's data and tokens are used`)
    }
  }
}

function splitFlag (flag: string): [string, string | undefined] {
  const equals = flag.indexOf('=')
  return equals === -1 ? [flag, undefined] : [flag.slice(0, equals), flag.slice(equals + 1)]
}

export const PROXY_HELP = [
  'Usage: mock-nvr proxy --target URL [--record FILE] [server options]',
  '',
  'Serves /nvr/v1 by forwarding each request to the target, a real NVR, with the client\'s own Authorization',
  'header, and answers the target\'s status, headers and body unchanged, checking each answer against the',
  'contract as it passes (violations are logged once per path, and counted in the journal and /healthz).',
  'Latency, faults and Prefer apply in front of the target. The server options of mock-nvr --help apply,',
  'but for --fixtures, --generate, --watch and --token.',
  '',
  '  --target URL          the real NVR\'s base URL, e.g. https://nvr.local:8443 (without /nvr/v1)',
  '  --record FILE         write the valid lists and lines that passed to this fixture file on stop',
  '                        (atomically, merged with what it holds)',
  '  --timeout MS          time each forwarded request may take; then 504 (default: 10000)',
  '  --ca FILE             trust this PEM certificate for an https:// target',
  '  --insecure            do not check the https:// target\'s certificate (warned about on every start)',
  '  -h, --help            show this help',
  ''
].join('\n')
