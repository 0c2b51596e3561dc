import type { ProxyOptions } from '../target-proxy/target-proxy.js'
import { parseTarget } from '../target-client/target-connection.js'
import { parseArgs } from 'node:util'
import { CLI_OPTIONS, envName, flagValue, type CliCommand, type FlagToken } from './args.js'
import { helpLines, TARGET_LINK_FLAGS, type FlagRow, type FlagTable } from './flag-rows.js'
import { readCaFile } from './ca-file.js'
import { TARGET_TOKEN_VARIABLE } from './target-token.js'
import { parseMilliseconds } from './milliseconds.js'
import { type TargetLinkError, UsageError } from '../errors/errors.js'

/** proxy's own flags; every other flag is a serve flag, read by the serve table (args.ts), unless refused below. */
const PROXY_FLAGS: FlagTable = {
  target: TARGET_LINK_FLAGS.target,
  record: { value: 'FILE', help: ['write the valid lists and lines that passed to this fixture file on stop', '(atomically, merged with what it holds)'] },
  timeout: { value: 'MS', help: ['time each forwarded request may take; then 504 (default: 10000)'] },
  ca: TARGET_LINK_FLAGS.ca,
  insecure: TARGET_LINK_FLAGS.insecure
}
const TARGETS_OWN = 'the target\'s data and tokens are used'
const ONE_DEVICE = 'a proxy is one device, forwarding to one target'
/** The serve flags proxy refuses, each with why: written once, for the flags, their twins and the help. */
export const NOT_FOR_PROXY: Readonly<Record<string, string>> = {
  fixtures: TARGETS_OWN,
  generate: TARGETS_OWN,
  watch: TARGETS_OWN,
  token: TARGETS_OWN,
  'scoped-token': TARGETS_OWN,
  'rate-limit': TARGETS_OWN,
  devices: ONE_DEVICE,
  fleet: ONE_DEVICE,
  manifest: ONE_DEVICE,
  'control-port': ONE_DEVICE,
  'offline-fraction': ONE_DEVICE,
  'flapping-fraction': ONE_DEVICE,
  shard: ONE_DEVICE
}

// The proxy holds no token of the target's: one would let anyone who reaches the proxy in.
const OWN_AUTHORIZATION = 'each client\'s own Authorization is forwarded to the target'
const PARSE_OPTIONS = Object.fromEntries(Object.entries(PROXY_FLAGS).map(([flag, row]) => [flag, { type: row.value === undefined ? 'boolean' as const : 'string' as const }]))
// A value that is one of these is a forgotten value, not a value (`--target --port 80`).
const ALL_FLAGS = new Set(['-h', '--help', ...Object.keys(PROXY_FLAGS).map(flag => `--${flag}`), ...CLI_OPTIONS.map(option => `--${option.flag}`)])

/** `mock-nvr proxy`'s own flags taken out of argv, read by its table; the rest are the usual server flags. */
export async function parseProxyArgs (argv: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ proxy: ProxyOptions, serveArgv: string[], help: boolean }> {
  const { tokens } = parseArgs({ args: [...argv], strict: false, allowPositionals: true, tokens: true, options: PARSE_OPTIONS })
  const values: Record<string, string | true> = {}
  const serveArgv: string[] = []
  let help = false
  for (const token of tokens) {
    const name = token.kind === 'option' ? token.name : undefined
    const row = name === undefined ? undefined : PROXY_FLAGS[name]
    if (name === 'help' || name === 'h') help = true
    else if (row !== undefined) values[name as string] = ownValue(token as FlagToken, row)
    else if (name !== undefined && Object.hasOwn(NOT_FOR_PROXY, name)) throw new UsageError(`--${name} does not apply to proxy: ${NOT_FOR_PROXY[name] as string}`)
    else if (name === 'token-file') throw new UsageError(`--token-file does not apply to proxy: ${OWN_AUTHORIZATION}`)
    else serveArgv.push(argv[token.index] as string)
  }
  if (help) return { proxy: { target: '' }, serveArgv, help }
  if (env[TARGET_TOKEN_VARIABLE] !== undefined) throw new UsageError(`${TARGET_TOKEN_VARIABLE} does not apply to proxy: ${OWN_AUTHORIZATION}; unset it`)
  if (values.target === undefined) throw new UsageError('--target URL is required: the real NVR to forward /nvr/v1 to')
  const timeout = values.timeout === undefined ? undefined : parseMilliseconds('timeout', values.timeout as string)
  let base: URL
  try {
    base = parseTarget(values.target as string)
  } catch (error) {
    throw new UsageError(`--target: ${(error as TargetLinkError).message}`)
  }
  const ca = values.ca === undefined ? undefined : await readCaFile(values.ca as string)
  if (ca !== undefined && base.protocol !== 'https:') throw new UsageError('--ca: a CA certificate is only of use with an https:// target')
  const proxy: ProxyOptions = {
    target: values.target as string,
    ...(timeout === undefined ? {} : { timeout }),
    ...(ca === undefined ? {} : { ca }),
    ...(values.insecure === true ? { insecure: true } : {}),
    ...(values.record === undefined ? {} : { record: values.record as string })
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
    const reason = NOT_FOR_PROXY[option.flag]
    if (reason !== undefined && value !== undefined && value !== false) throw new UsageError(`${envName(option)} does not apply to proxy: ${reason}`)
  }
}

// A flag of proxy's own; an empty value is a missing one, as the serve flags have it.
function ownValue (token: FlagToken, row: FlagRow): string | true {
  const value = flagValue(token, row.value, ALL_FLAGS)
  if (value === '') throw new UsageError(`${token.rawName} needs a value: ${token.rawName} ${row.value as string}`)
  return value
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
  ...helpLines(PROXY_FLAGS),
  '  -h, --help            show this help',
  ''
].join('\n')

// The help's words for NOT_FOR_PROXY, grouped by reason.
function refusedLines (): string[] {
  return [...new Set(Object.values(NOT_FOR_PROXY))].map(reason => {
    const flags = Object.keys(NOT_FOR_PROXY).filter(flag => NOT_FOR_PROXY[flag] === reason).map(flag => `--${flag}`)
    return `but for ${flags.slice(0, -1).join(', ')} and ${flags.at(-1) as string}: ${reason};`
  })
}
