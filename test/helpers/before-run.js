// Run by tap before any test file (.taprc `before`).
import { mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { buildCliUnderTest } from './cli-under-test.js'
import { tempEntries, TEMP_ENTRIES_FILE } from './temp-entries.js'

buildCliUnderTest()

// What the temp folder holds of mock-nvr's before the tests, for after-run.js to name what they leave behind.
mkdirSync(fileURLToPath(new URL('.', TEMP_ENTRIES_FILE)), { recursive: true })
writeFileSync(TEMP_ENTRIES_FILE, JSON.stringify(tempEntries()))
