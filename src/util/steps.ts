// Types only, so the code the browser bundle shares (the manual clock) can name them.

/**
 * How work over many items steps, whichever it is (a fleet-wide verb, a page, a scrape, a clock's move): items per
 * turn, and what waits between turns (the next turn of the event loop unless the caller says).
 */
export interface Steps {
  perTurn?: number
  turn?: () => Promise<unknown>
}
