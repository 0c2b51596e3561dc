import { readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'

/** Where before-run.js keeps the temp folder's mock-nvr entries for after-run.js. */
export const TEMP_ENTRIES_FILE = new URL('../../.tap/temp-entries.json', import.meta.url)

/** The temp folder's entries that tests and the code under test name mock-nvr-…: every temp file they make. */
export function tempEntries () {
  return readdirSync(tmpdir()).filter(name => name.startsWith('mock-nvr-')).sort()
}
