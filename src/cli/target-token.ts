import { readFile } from 'node:fs/promises'
import { describeFsError } from '../data/fixtures.js'
import { UsageError } from '../errors/errors.js'

/** The variable verify and record read the target's token from, when no flag gives it; its name is older than the word target. */
export const TARGET_TOKEN_VARIABLE = 'MOCK_NVR_DEVICE_TOKEN'

/** Every MOCK_NVR_* variable the target commands read (proxy reads none of them, and refuses this one). */
export const TARGET_COMMAND_VARIABLES = [TARGET_TOKEN_VARIABLE] as const

/** The target's token and where it came from, as a usage error about it names it. */
export interface TargetToken {
  token: string
  /** `--token`, `--token-file FILE` or `MOCK_NVR_DEVICE_TOKEN`. */
  source: string
}

/**
 * The token from --token, --token-file or MOCK_NVR_DEVICE_TOKEN. The two flags exclude each other; either beats
 * the variable, as a flag beats its twin. A file's one trailing newline is not part of the token.
 */
export async function readTargetToken ({ token, tokenFile }: { token?: string, tokenFile?: string }, env: NodeJS.ProcessEnv): Promise<TargetToken> {
  if (token !== undefined && tokenFile !== undefined) throw new UsageError('give the token once: --token or --token-file, not both')
  if (token !== undefined) return { token, source: '--token' }
  if (tokenFile !== undefined) return { token: await readTokenFile(tokenFile), source: `--token-file ${tokenFile}` }
  const variable = env[TARGET_TOKEN_VARIABLE]
  if (variable === undefined) throw new UsageError(`the target's token is required: --token TOKEN, --token-file FILE or ${TARGET_TOKEN_VARIABLE}`)
  if (variable === '') throw new UsageError(`${TARGET_TOKEN_VARIABLE} is set but empty: give it the target's token, or unset it`)
  return { token: variable, source: TARGET_TOKEN_VARIABLE }
}

async function readTokenFile (file: string): Promise<string> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new UsageError(`--token-file ${file}: ${describeFsError(error)}`)
  }
  const token = text.replace(/\r?\n$/, '')
  if (token === '') throw new UsageError(`--token-file ${file} is empty: put the target's token in it`)
  return token
}
