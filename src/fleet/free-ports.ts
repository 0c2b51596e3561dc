/** The highest port there is. */
const LAST_PORT = 65535

/** A listener that could not listen, with why: its place in the list. */
export class FreePortFailure extends Error {
  constructor (readonly index: number, readonly reason: NodeJS.ErrnoException) {
    super(reason.message)
  }
}

// What another listener holding the port answers: try the next one.
const TAKEN = new Set(['EADDRINUSE', 'EACCES'])

/**
 * Listens `count` listeners each on a free port of its own. Asking the kernel for each one (port 0) slows down as
 * its ephemeral range fills, each bind scanning the ports taken so far: 10,000 listeners took 27 s on a 2-core
 * Linux machine, 5,000 one second. So the kernel picks the first, and the others try the ports above it, all at
 * once, the taken ones again above the highest tried, until each has one; past 65535 the kernel picks the rest.
 * Rejects with FreePortFailure for any other failure than a taken port.
 */
export async function listenOnFreePorts (count: number, listen: (index: number, port: number) => Promise<number>): Promise<void> {
  if (count === 0) return
  const first = await listen(0, 0).catch((error: unknown) => { throw new FreePortFailure(0, error as NodeJS.ErrnoException) })
  let next = first + 1
  let waiting = Array.from({ length: count - 1 }, (_, index) => index + 1)
  while (waiting.length > 0) {
    const tried = waiting.map((index, place) => ({ index, port: next + place > LAST_PORT ? 0 : next + place }))
    next += tried.length
    const results = await Promise.allSettled(tried.map(async ({ index, port }) => await listen(index, port)))
    waiting = []
    for (const [place, result] of results.entries()) {
      if (result.status === 'fulfilled') continue
      const { index, port } = tried[place] as { index: number, port: number }
      const reason = result.reason as NodeJS.ErrnoException
      if (port === 0 || !TAKEN.has(reason.code ?? '')) throw new FreePortFailure(index, reason)
      waiting.push(index)
    }
  }
}
