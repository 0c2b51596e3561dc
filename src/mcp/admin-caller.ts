import type { FastifyInstance } from 'fastify'

/** What an admin call answered: its status and its JSON body (an envelope), or why nothing answered. */
export interface AdminAnswer {
  status: number
  body: unknown
}

/** What the MCP server steers: a mock-nvr through its admin API, and whether it is a fleet's. */
export interface SteeredMock {
  call: AdminCaller
  fleet: boolean
}

/** Makes a call of the admin API (or another path of the mock-nvr, such as /openapi.json), with the admin token. */
export type AdminCaller = (method: string, path: string, body?: unknown) => Promise<AdminAnswer>

/**
 * Calls the app in its own process, through Fastify's inject(): the admin API's own checks, words and logs, and no
 * socket. `authorization` is the header that opened the MCP endpoint, or the admin token's.
 */
export function injectCaller (app: FastifyInstance, authorization: string): AdminCaller {
  return async (method, path, body) => {
    const answer = await app.inject({
      method: method as 'GET',
      url: path,
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) })
    })
    return { status: answer.statusCode, body: parsed(answer.body) }
  }
}

/** Calls a mock-nvr that is already running, at its admin address, over HTTP. */
export function fetchCaller (baseUrl: string, token: string | undefined): AdminCaller {
  const base = baseUrl.replace(/\/+$/, '')
  return async (method, path, body) => {
    const answer = await fetch(`${base}${path}`, {
      method,
      headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: answer.status, body: parsed(await answer.text()) }
  }
}

function parsed (text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
