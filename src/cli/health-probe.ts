import { get as getHttp, type IncomingMessage } from 'node:http'
import { get as getHttps } from 'node:https'
import { parseCli, type CliCommand } from './args.js'
import { baseUrl } from '../util/listen-address.js'

/** The /healthz URL of a mock started with these environment variables, as seen from its own machine. */
export function healthUrl (env: NodeJS.ProcessEnv): URL {
  // Without arguments the command is always serve; only the environment speaks.
  const { options } = parseCli([], env) as Extract<CliCommand, { command: 'serve' }>
  // The CLI's defaults always hold a port.
  const port = options.port as number
  const tls = options.tlsSelfSigned === true || options.tlsCert !== undefined
  return new URL(`${baseUrl(options.host ?? '127.0.0.1', port, tls ? 'https' : 'http')}/healthz`)
}

/** True when the URL answers 200 within the time limit; any error, other status or silence is false. */
export function probeHealth (url: URL, timeoutMs: number): Promise<boolean> {
  return new Promise(resolve => {
    // The certificate is not verified: this asks whether the mock is alive, not who it is,
    // and a self-signed certificate or one made for a public name would otherwise fail here.
    const options = { timeout: timeoutMs, rejectUnauthorized: false }
    const onResponse = (response: IncomingMessage): void => {
      response.resume()
      resolve(response.statusCode === 200)
    }
    const request = url.protocol === 'https:' ? getHttps(url, options, onResponse) : getHttp(url, options, onResponse)
    request.on('timeout', () => request.destroy(new Error('timed out')))
    request.on('error', () => resolve(false))
  })
}

const TIMEOUT_MS = 2_000

/** The healthcheck command: 0 when healthy, else 1 with the reason written to `stderr`. */
export async function runHealthcheck (env: NodeJS.ProcessEnv, stderr: { write: (text: string) => unknown }): Promise<number> {
  try {
    const url = healthUrl(env)
    if (await probeHealth(url, TIMEOUT_MS)) return 0
    stderr.write(`mock-nvr healthcheck: ${url.href} did not answer 200\n`)
  } catch (error) {
    stderr.write(`mock-nvr healthcheck: ${(error as Error).message}\n`)
  }
  return 1
}
