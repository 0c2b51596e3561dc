/** How long a test waits for an event before it fails naming it: far beyond any event's time on a loaded machine. */
export const WAIT_MS = 20_000

/**
 * Resolves as `happening` does, or rejects naming `what` once `ms` have passed without it: a regression shows as
 * the event that did not come, not as the runner's time-out of the whole file.
 */
export async function within<T> (what: string, happening: Promise<T>, ms = WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_resolve, reject) => { timer = setTimeout(() => reject(new Error(`waited ${ms / 1000} s for ${what}, in vain`)), ms) })
  try {
    return await Promise.race([happening, late])
  } finally {
    clearTimeout(timer)
  }
}

/** Resolves once `check` holds, checking every `everyMs`; rejects naming `what` once `ms` have passed. */
export async function until (what: string, check: () => boolean, everyMs = 20, ms = WAIT_MS): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`waited ${ms / 1000} s for ${what}, in vain`)
    await new Promise(resolve => setTimeout(resolve, everyMs))
  }
}
