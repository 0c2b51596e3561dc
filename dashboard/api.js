// @ts-check
/// <reference lib="dom" />
/* global fetch, sessionStorage, TextDecoder */
// The admin API as the page uses it: the token kept in this tab, JSON calls, and the journal's event stream.

/** @typedef {import('../src/util/value-errors.js').ValueProblem} ValueProblem */
/** @typedef {import('../src/contract/schemas.js').ErrorEnvelope} ErrorEnvelope */

const TOKEN_KEY = 'mock-nvr-admin-token'
export const ADMIN = '/__admin'
/** Where the calls go: /__admin, or on a fleet's control address /__admin/devices/{name} for one device's view. */
let base = ADMIN

/**
 * Makes every call of the page go to one device of a fleet.
 * @param {string} name
 */
export function useDevice (name) {
  base = `${ADMIN}/devices/${encodeURIComponent(name)}`
}

/** The admin token of this tab: sessionStorage only, so it survives a reload and dies with the tab. */
export const token = {
  get: () => sessionStorage.getItem(TOKEN_KEY),
  set: (/** @type {string} */ value) => sessionStorage.setItem(TOKEN_KEY, value),
  forget: () => sessionStorage.removeItem(TOKEN_KEY)
}

/** The admin token was refused (401): the page asks for it again. */
export class TokenRefused extends Error {}
/** mock-nvr did not answer at all: it stopped, or the network is gone. */
export class ServerGone extends Error {}
/** An answer in the error envelope: its status, its sentence, and what is wrong with a refused body, one problem per JSON path. */
export class Refusal extends Error {
  /**
   * @param {number} status
   * @param {string} message
   * @param {ValueProblem[]} [problems] the envelope's `problems`; none: the sentence is the one problem
   */
  constructor (status, message, problems) {
    super(message)
    this.status = status
    /** @type {ValueProblem[]} */
    this.problems = problems ?? [{ path: '', message }]
  }
}

/**
 * The refusal an answer in the error envelope makes.
 * @param {Response} response
 * @param {ErrorEnvelope | null} envelope
 */
function refusalOf (response, envelope) {
  const result = envelope?.result
  return new Refusal(response.status, result?.errorMessage ?? `${response.status} answered`, result?.problems)
}

/** @param {Record<string, string>} [extra] */
function headers (extra = {}) {
  return { authorization: `Bearer ${token.get()}`, ...extra }
}

/**
 * Calls the admin API; resolves with the envelope's content, or throws TokenRefused, ServerGone or Refusal.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body] sent as it is when a string (a file's text), as JSON otherwise
 * @returns {Promise<any>} the content, whose shape the path says
 */
export async function call (method, path, body) {
  let response
  try {
    /** @type {RequestInit} */
    const init = { method, headers: headers(body === undefined ? {} : { 'content-type': 'application/json' }), cache: 'no-store' }
    if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body)
    response = await fetch(`${base}${path}`, init)
  } catch (error) {
    throw new ServerGone(String(error))
  }
  if (response.status === 401) throw new TokenRefused('The admin token was not accepted.')
  let envelope
  try {
    envelope = await response.json()
  } catch (error) {
    throw new ServerGone(`the answer of ${method} ${path} was cut off or not JSON (${error})`)
  }
  if (!response.ok) throw refusalOf(response, envelope)
  return envelope.content
}

/**
 * Opens GET /__admin/requests/stream (or another stream: `path`) with the token in the header (fetch, since EventSource cannot send
 * one and a token in the URL ends up in logs) and calls onEvent(name, data) per event until the stream
 * ends; resolves then, rejects as call() does when it cannot open.
 * @param {(name: string, data: any) => void} onEvent
 * @param {AbortSignal} signal
 */
export async function readJournalStream (onEvent, signal, path = '/requests/stream') {
  let response
  try {
    response = await fetch(`${base}${path}`, { headers: headers({ accept: 'text/event-stream' }), cache: 'no-store', signal })
  } catch (error) {
    if (signal.aborted) return
    throw new ServerGone(String(error))
  }
  if (response.status === 401) throw new TokenRefused('The admin token was not accepted.')
  if (!response.ok) {
    throw refusalOf(response, await response.json().catch(() => null))
  }
  // A fetch answer to GET has a body.
  const reader = /** @type {ReadableStream<Uint8Array>} */ (response.body).getReader()
  const decoder = new TextDecoder()
  let text = ''
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      text += decoder.decode(value, { stream: true })
      let end = text.indexOf('\n\n')
      while (end !== -1) {
        const event = parseEvent(text.slice(0, end))
        if (event !== undefined) onEvent(event.name, event.data)
        text = text.slice(end + 2)
        end = text.indexOf('\n\n')
      }
    }
  } catch (error) {
    if (!signal.aborted) throw new ServerGone(String(error))
  }
}

/** @param {string} block */
function parseEvent (block) {
  let name = 'message'
  let data = ''
  for (const line of block.split('\n')) {
    if (line.startsWith('event: ')) name = line.slice(7)
    else if (line.startsWith('data: ')) data += line.slice(6)
  }
  // Comment lines (heartbeats) carry no event.
  return data === '' ? undefined : { name, data: JSON.parse(data) }
}
