// Run by tap before any test file (.taprc `before`).
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { tempEntries, TEMP_ENTRIES_FILE } from './temp-entries.js'

// The CLI bundled from src/ as npm run build does, into .cli-under-test/, one folder below the project like dist/.
// Tests spawn it with plain node, outside coverage: it is ready in a third of the time tsx and the runner's
// tracking take to load the sources. Built outside the runner's coverage, which is of src/, not of the build script:
// through env(1), as untracked.ts says why.
const bundler = fileURLToPath(new URL('../../scripts/bundle-cli.js', import.meta.url))
const outfile = fileURLToPath(new URL('../../.cli-under-test/cli.js', import.meta.url))
execFileSync('env', ['NODE_OPTIONS=', process.execPath, bundler, outfile], { stdio: 'inherit' })

// What the temp folder holds of mock-nvr's before the tests, for after-run.js to name what they leave behind.
mkdirSync(fileURLToPath(new URL('.', TEMP_ENTRIES_FILE)), { recursive: true })
writeFileSync(TEMP_ENTRIES_FILE, JSON.stringify(tempEntries()))
