import { FleetListenError } from '../errors/errors.js'

/** The highest port there is. */
const LAST_PORT = 65535

/** A listener that could not listen, with why: its place in the list. */
export interface FreePortFailure {
  index: number
  reason: NodeJS.ErrnoException
}

/**
 * Listens `count` listeners each on a free port of its own. Asking the kernel for each one (port 0) slows down as
 * its ephemeral range fills, each bind scanning the ports taken so far: 10,000 listeners took 27 s on a 2-core
 * Linux machine, 5,000 one second. So the kernel picks the first, and the others try the ports above it, all at
 * once, the taken ones again above the highest tried, until each has one; past 65535 the kernel picks the rest.
 * Resolves with the first failure other than a taken port, if any, once the listeners tried have settled.
 */
export async function listenOnFreePorts (count: number, listen: (index: number, port: number) => Promise<number>): Promise<FreePortFailure | undefined> {
  if (count === 0) return undefined
  let first: number
  try {
    first = await listen(0, 0)
  } catch (error) {
    return { index: 0, reason: error as NodeJS.ErrnoException }
  }
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
      // Another listener holds the port (or it is privileged): try the next one.
      if (port === 0 || (reason.code !== 'EADDRINUSE' && reason.code !== 'EACCES')) return { index, reason }
      waiting.push(index)
    }
  }
  return undefined
}

/** What listenDevices needs of a device's plan: its name and port (0: a free one). */
export interface ListenPlan {
  name: string
  options: { port: number }
}

/**
 * Listens every device: those with a port of their own all at once, then those on free ports (port 0), so a
 * free port is never one another device was given. Throws FleetListenError naming the first device that failed.
 */
export async function listenDevices (plans: readonly ListenPlan[], listen: (index: number, port: number) => Promise<number>): Promise<void> {
  const given = plans.flatMap((plan, index) => plan.options.port === 0 ? [] : [index])
  const results = await Promise.allSettled(given.map(async index => await listen(index, (plans[index] as ListenPlan).options.port)))
  const failed = results.findIndex(result => result.status === 'rejected')
  const free = plans.flatMap((plan, index) => plan.options.port === 0 ? [index] : [])
  const failure = failed !== -1
    ? { plan: plans[given[failed] as number] as ListenPlan, reason: (results[failed] as PromiseRejectedResult).reason as NodeJS.ErrnoException }
    : await freeFailure(plans, free, listen)
  if (failure !== undefined) throw new FleetListenError(failure.plan.name, failure.plan.options.port, failure.reason, plans.length)
}

async function freeFailure (plans: readonly ListenPlan[], free: readonly number[], listen: (index: number, port: number) => Promise<number>): Promise<{ plan: ListenPlan, reason: NodeJS.ErrnoException } | undefined> {
  const failure = await listenOnFreePorts(free.length, async (place, port) => await listen(free[place] as number, port))
  return failure === undefined ? undefined : { plan: plans[free[failure.index] as number] as ListenPlan, reason: failure.reason }
}
