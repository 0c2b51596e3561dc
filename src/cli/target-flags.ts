import { NOT_FOR_PROXY as OPTIONS_NOT_FOR_PROXY } from '../config/settings.js'
import { CLI_OPTIONS } from './serve-flags.js'
import type { FlagTable } from './flag-rows.js'
import { TARGET_TOKEN_VARIABLE } from './target-token.js'

/** The flags that reach the target, which verify, record and proxy share: their help is written here once. */
const TARGET_LINK_FLAGS = {
  target: { value: 'URL', help: ['the real NVR\'s base URL, e.g. https://nvr.local:8443 (without /nvr/v1)'] },
  timeout: { value: 'MS', help: ['time each request to the target may take (default: 10000)'], default: '10000' },
  ca: { value: 'FILE', help: ['trust this PEM certificate for an https:// target (e.g. the target\'s self-signed one)'], default: 'none' },
  insecure: { help: ['do not check the https:// target\'s certificate (warned about every time)'] }
} as const satisfies FlagTable

/** The flags verify and record share. */
export const READING_FLAGS: FlagTable = {
  target: TARGET_LINK_FLAGS.target,
  token: { value: 'TOKEN', help: ['the bearer token the target accepts; never written to any output, log or file'] },
  'token-file': {
    value: 'FILE',
    help: ['read the token from FILE instead (one trailing newline dropped), so it stays out', `of ps and shell history; or set ${TARGET_TOKEN_VARIABLE}. A flag beats the variable`]
  },
  camera: { value: 'ID', multiple: true, help: ['a camera to read (repeatable): the API has no route that lists cameras'] },
  timeout: TARGET_LINK_FLAGS.timeout,
  'run-timeout': { value: 'MS', help: ['time the whole run may take (default: no limit)'], default: 'no limit' },
  ca: TARGET_LINK_FLAGS.ca,
  insecure: TARGET_LINK_FLAGS.insecure
}

export const VERIFY_FLAGS: FlagTable = {
  ...READING_FLAGS,
  json: { help: ['print the report as one JSON object, and nothing else, on stdout'] },
  junit: { value: 'FILE', help: ['also write the report as JUnit XML, for CI systems'], default: 'none' },
  strict: { help: ['differences from mock-nvr count as failures too'] }
}

export const RECORD_FLAGS: FlagTable = {
  ...READING_FLAGS,
  out: { value: 'FILE', help: ['the fixture file to write (atomically)'] },
  force: { help: ['replace FILE if it exists'] },
  json: { help: ['print the outcome (or the refusal report) as JSON on stdout'] }
}

/** proxy's own flags; it takes serving's too, but for those it refuses (NOT_FOR_PROXY). */
export const PROXY_OWN_FLAGS: FlagTable = {
  target: TARGET_LINK_FLAGS.target,
  record: { value: 'FILE', help: ['write the valid lists and lines that passed to this fixture file on stop', '(atomically, merged with what it holds)'], default: 'none' },
  timeout: { value: 'MS', help: ['time each forwarded request may take; then 504 (default: 10000)'], default: '10000' },
  ca: TARGET_LINK_FLAGS.ca,
  insecure: TARGET_LINK_FLAGS.insecure
}

/** The serve flags proxy refuses, each with why: the options' refusals, by the flags that give them. */
export const NOT_FOR_PROXY: Readonly<Record<string, string>> = Object.fromEntries(CLI_OPTIONS.flatMap(({ flag, key }) => {
  const reason = OPTIONS_NOT_FOR_PROXY.get(key)
  return reason === undefined ? [] : [[flag, reason]]
}))

/** Why proxy refuses the target commands' token: it holds none, as one would let anyone who reaches the proxy in. */
export const OWN_AUTHORIZATION = 'each client\'s own Authorization is forwarded to the target'
