// Run by tap after every test file (.taprc `after`): a test that leaves a file in the temp folder fails the run.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { tempEntries, TEMP_ENTRIES_FILE } from './temp-entries.js'

const before = new Set(JSON.parse(readFileSync(TEMP_ENTRIES_FILE, 'utf8')))
const left = tempEntries().filter(name => !before.has(name))
if (left.length > 0) {
  process.stderr.write(`The tests left ${left.length} temp ${left.length === 1 ? 'entry' : 'entries'} behind:\n${left.map(name => `  ${join(tmpdir(), name)}\n`).join('')}`)
  process.exitCode = 1
}
