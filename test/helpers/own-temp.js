// `node test/helpers/own-temp.js COMMAND [ARGS…]` runs the command (tap, in npm test) with a temp folder of its own:
// TMPDIR, TMP and TEMP of every process it starts name a new folder in the system's temp folder. When the command
// ends, a mock-nvr-… entry left in that folder fails the run, named: the tests make their temp files so and remove
// them. Entries other programs make in the system's temp folder meanwhile (another clone's tests, a second CI job)
// are none of this run's business. The folder is removed with whatever else it holds (caches of tsx, npm), and the
// run ends with the command's exit code, or 1 when something was left behind.
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { constants, tmpdir } from 'node:os'
import { join } from 'node:path'

/** The entries tests and the code under test make in the temp folder are named so; anything else is some tool's. */
const OURS = 'mock-nvr-'

const [command, ...args] = process.argv.slice(2)
if (command === undefined) {
  process.stderr.write('usage: node test/helpers/own-temp.js COMMAND [ARGS…]\n')
  process.exit(2)
}

// Not named mock-nvr-…, so that a guard looking at the whole system temp folder never takes it for a leak.
const folder = mkdtempSync(join(tmpdir(), 'tap-run-mock-nvr-'))
const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, TMPDIR: folder, TMP: folder, TEMP: folder } })

// Ctrl-C reaches the command too, from the terminal: this process waits for it to end, then cleans up.
// A signal sent to this process alone is passed on.
process.on('SIGINT', () => {})
for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))

child.on('error', error => {
  process.stderr.write(`own-temp.js could not run ${command}: ${error.message}\n`)
})
child.on('close', (code, signal) => {
  const left = readdirSync(folder).filter(name => name.startsWith(OURS)).sort()
  if (left.length > 0) {
    process.stderr.write(`The tests left ${left.length} temp ${left.length === 1 ? 'entry' : 'entries'} behind:\n${left.map(name => `  ${join(folder, name)}\n`).join('')}`)
  }
  rmSync(folder, { recursive: true, force: true })
  // A command ended by a signal ends as a shell reports it: 128 plus the signal's number.
  const status = code ?? 128 + (constants.signals[signal] ?? 0)
  process.exitCode = status === 0 && left.length > 0 ? 1 : status
})
