import t from 'tap'
import { exitProcess, type ExitingProcess } from '../../src/cli/stop-gracefully.js'

/** A stand-in process that records what exitProcess does to it. */
function recordingProcess (): ExitingProcess & { calls: string[] } {
  const calls: string[] = []
  return {
    pid: 4242,
    calls,
    kill: (pid, signal) => calls.push(`kill ${pid} ${signal}`),
    removeAllListeners: event => calls.push(`removeAllListeners ${event}`),
    exit: code => calls.push(`exit ${code}`)
  }
}

t.test('with its terminals still there, or none, the process exits with the code', async t => {
  const proc = recordingProcess()
  exitProcess(0, [0, 1, 2], () => true, proc)
  exitProcess(1, [], () => false, proc)
  t.strictSame(proc.calls, ['exit 0', 'exit 1'])
})

t.test('once a terminal it started on is gone, it ends by SIGHUP, as on a hang-up', async t => {
  const proc = recordingProcess()
  exitProcess(0, [0, 1], fd => fd !== 1, proc)
  t.strictSame(proc.calls, ['removeAllListeners SIGHUP', 'kill 4242 SIGHUP', 'exit 0'])
})
