import { DELAY_TEXT } from '../util/delay.js'

/**
 * dashboard/server-values.js: what the page takes from the server's own code instead of writing it again. It is
 * generated (npm run dashboard:values), and a test holds the file to this text.
 */
export function dashboardValues (): string {
  return `// @ts-check
// Generated from the server's code by \`npm run dashboard:values\` (src/admin-api/dashboard-values.ts): do not edit.

/** A delay as text: "800", or "100-800" for a range (milliseconds), as --latency and \`Prefer: delay=\` read it. */
export const DELAY_TEXT = ${String(DELAY_TEXT)}
`
}
