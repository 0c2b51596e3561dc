/** One server-sent event as a client parses it; a comment line (a heartbeat) has the event name ':'. */
export interface ServerSentEvent {
  event: string
  id?: string
  data: string
}

/** Parses a stream of server-sent event text (the fields mock-nvr sends), event by event. */
// A fetch body is a Node ReadableStream, async iterable in Node; the DOM's type of it (which examples/ bring into
// the same type check) does not say so.
export async function * parseEvents (chunks: AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder()
  let text = ''
  for await (const chunk of chunks as AsyncIterable<Uint8Array | string>) {
    text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })
    let end = text.indexOf('\n\n')
    while (end !== -1) {
      yield parseEvent(text.slice(0, end))
      text = text.slice(end + 2)
      end = text.indexOf('\n\n')
    }
  }
}

function parseEvent (block: string): ServerSentEvent {
  const parsed: ServerSentEvent = { event: 'message', data: '' }
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) return { event: ':', data: line.slice(1).trim() }
    const colon = line.indexOf(':')
    const field = line.slice(0, colon)
    const value = line.slice(colon + 2)
    if (field === 'event') parsed.event = value
    if (field === 'id') parsed.id = value
    if (field === 'data') parsed.data = value
  }
  return parsed
}

/** Reads events until one passes the test; returns every event read, that one last. */
export async function readUntil (events: AsyncIterator<ServerSentEvent>, done: (event: ServerSentEvent) => boolean): Promise<ServerSentEvent[]> {
  const read: ServerSentEvent[] = []
  for (;;) {
    const next = await events.next()
    if (next.done === true) throw new Error(`the stream ended after ${read.length} events`)
    read.push(next.value)
    if (done(next.value)) return read
  }
}
