import { setupServer } from 'msw/node'
import type { Test } from 'tap'
import { startMockNvr, type MockNvr, type MockNvrOptions } from '../../src/index.js'
import { createNvrHandlers, type NvrHandlers, type NvrHandlersOptions } from '../../src/msw/index.js'

/** The headers an answer is compared by: those a client reads; Date, Connection and Keep-Alive aside. */
export const COMPARED_HEADERS = [
  'content-type', 'content-length', 'www-authenticate', 'allow', 'retry-after', 'preference-applied', 'vary', 'access-control-allow-origin',
  'access-control-expose-headers', 'access-control-allow-methods', 'access-control-allow-headers', 'access-control-max-age'
]

export const MSW_BASE_URL = 'http://nvr.test'

export interface Seen {
  status: number
  headers: Record<string, string>
  body: string
}

/** What a fetch got: the status, the compared headers and the body's bytes (hex, so any byte compares), or a network error. */
export async function see (url: string, init: RequestInit): Promise<Seen | 'network error'> {
  let response: Response
  try {
    response = await fetch(url, { ...init, redirect: 'manual' })
  } catch {
    return 'network error'
  }
  const headers: Record<string, string> = {}
  for (const name of COMPARED_HEADERS) {
    const value = response.headers.get(name)
    if (value !== null) headers[name] = value
  }
  try {
    return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()).toString('hex') }
  } catch {
    return 'network error'
  }
}

/** The server on a socket and the MSW handlers in this process, on the same data and options. */
export interface Twins {
  server: MockNvr
  msw: NvrHandlers
  /** Sends the same request to both and returns what each got. */
  both: (path: string, init?: RequestInit) => Promise<{ server: Seen | 'network error', msw: Seen | 'network error' }>
}

export async function twins (t: Test, options: Omit<NvrHandlersOptions, 'baseUrl'> & Pick<MockNvrOptions, 'data'> = {}): Promise<Twins> {
  const server = await startMockNvr({ ...options, data: options.data, tokens: options.tokens === undefined ? [] : [...options.tokens] } as MockNvrOptions)
  t.teardown(() => server.close())
  const msw = createNvrHandlers({ ...options, baseUrl: MSW_BASE_URL })
  const worker = setupServer(...msw.handlers)
  worker.listen({ onUnhandledRequest: 'bypass' })
  t.teardown(() => worker.close())
  return {
    server,
    msw,
    both: async (path, init = {}) => ({ server: await see(`${server.url}${path}`, init), msw: await see(`${MSW_BASE_URL}${path}`, init) })
  }
}
