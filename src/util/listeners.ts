/**
 * Whoever listens to something that happens often, such as a request recorded. While nobody listens `tell` is
 * null, so what happens costs one check; one listener is told directly, several each in turn.
 */
// Shared by every list with no listener yet: a list is replaced, never changed in place.
const NONE: readonly never[] = []

export class Listeners<Args extends unknown[]> {
  // Replaced, never changed in place: a listener that leaves while being told does not make another one missed.
  #listeners: ReadonlyArray<(...args: Args) => void> = NONE
  /** Tells every listener; null while there is none. */
  tell: ((...args: Args) => void) | null = null

  /** Listeners now. */
  get size (): number {
    return this.#listeners.length
  }

  /** Adds a listener; the function returned removes it (again: nothing). */
  add (listener: (...args: Args) => void): () => void {
    this.#listeners = [...this.#listeners, listener]
    this.#update()
    let added = true
    return () => {
      if (!added) return
      added = false
      const index = this.#listeners.indexOf(listener)
      this.#listeners = [...this.#listeners.slice(0, index), ...this.#listeners.slice(index + 1)]
      this.#update()
    }
  }

  #update (): void {
    const listeners = this.#listeners
    if (listeners.length === 0) this.tell = null
    else if (listeners.length === 1) this.tell = listeners[0] as (...args: Args) => void
    else this.tell = (...args: Args) => { for (const listener of listeners) listener(...args) }
  }
}
