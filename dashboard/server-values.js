// @ts-check
// Generated from the server's code by `npm run dashboard:values` (src/admin-api/dashboard-values.ts): do not edit.

/** A delay as text: "800", or "100-800" for a range (milliseconds), as --latency and `Prefer: delay=` read it. */
export const DELAY_TEXT = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/
