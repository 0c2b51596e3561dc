/* global fetch, sessionStorage, TextDecoder */
// The admin API as the page uses it: the token kept in this tab, JSON calls, and the journal's event stream.

const TOKEN_KEY = 'mock-nvr-admin-token'
export const ADMIN = '/__admin'
/** Where the calls go: /__admin, or on a fleet's control address /__admin/devices/{name} for one device's view. */
let base = ADMIN

/** Makes every call of the page go to one device of a fleet. */
export function useDevice (name) {
  base = `${ADMIN}/devices/${encodeURIComponent(name)}`
}

/** The admin token of this tab: sessionStorage only, so it survives a reload and dies with the tab. */
export const token = {
  get: () => sessionStorage.getItem(TOKEN_KEY),
  set: value => sessionStorage.setItem(TOKEN_KEY, value),
  forget: () => sessionStorage.removeItem(TOKEN_KEY)
}

/** The admin token was refused (401): the page asks for it again. */
export class TokenRefused extends Error {}
/** mock-nvr did not answer at all: it stopped, or the network is gone. */
export class ServerGone extends Error {}
/** An answer in the error envelope, with its status and message. */
export class Refusal extends Error {
  constructor (status, message) {
    super(message)
    this.status = status
  }

  /** The problems of a refused body, one per JSON path: "The request body is invalid: /a: x; /b: y." */
  get problems () {
    const prefix = 'The request body is invalid: '
    if (!this.message.startsWith(prefix)) return [{ path: '', problem: this.message }]
    return this.message.slice(prefix.length).replace(/\.$/, '').split('; ').map(item => {
      const match = /^(\/\S*): (.*)$/.exec(item)
      return match === null ? { path: '', problem: item } : { path: match[1], problem: match[2] }
    })
  }
}

function headers (extra = {}) {
  return { authorization: `Bearer ${token.get()}`, ...extra }
}

/** Calls the admin API; resolves with the envelope's content, or throws TokenRefused, ServerGone or Refusal. */
export async function call (method, path, body) {
  let response
  try {
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
  if (!response.ok) throw new Refusal(response.status, envelope?.result?.errorMessage ?? `${response.status} answered`)
  return envelope.content
}

/**
 * Opens GET /__admin/requests/stream (or another stream: `path`) with the token in the header (fetch, since EventSource cannot send
 * one and a token in the URL ends up in logs) and calls onEvent(name, data) per event until the stream
 * ends; resolves then, rejects as call() does when it cannot open.
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
    const envelope = await response.json().catch(() => null)
    throw new Refusal(response.status, envelope?.result?.errorMessage ?? `${response.status} answered`)
  }
  const reader = response.body.getReader()
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
