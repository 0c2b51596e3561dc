// A process that stops as the CLI's server does (src/cli.ts): stopGracefully and endQuietlyWhenClosed, with a
// close that `mode` decides. It logs JSON lines to stderr, prints "ready" on stdout, and then, for each byte on
// stdin, writes a line to stdout ('w') or leaves a promise rejected ('r'). Run by test/cli/stop-gracefully.test.ts.
import { pino } from 'pino'
import { endQuietlyWhenClosed } from '../../src/cli/closed-output.js'
import { stopGracefully } from '../../src/cli/stop-gracefully.js'

const mode = process.argv[2] as 'closes' | 'hangs'
const log = pino(pino.destination({ fd: 2, sync: true }))
endQuietlyWhenClosed(process.stdout, () => true)
stopGracefully({
  graceMs: 100,
  log,
  // A close that never ends leaves only the grace period to end the process.
  close: async () => { if (mode === 'hangs') await new Promise(() => {}) },
  env: {}
})
// stdin, left open by the test, keeps the process running as a server's port would.
process.stdin.on('data', (bytes: Buffer) => {
  for (const byte of bytes.toString()) {
    if (byte === 'w') process.stdout.write('more\n')
    // Left unhandled on purpose: the stop it causes is what is tested.
    if (byte === 'r') Promise.reject(new Error('a promise nobody awaited'))
  }
})
process.stdout.write('ready\n')
