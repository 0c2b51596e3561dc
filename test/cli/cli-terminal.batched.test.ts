import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import t from 'tap'
import { CLI_UNDER_TEST } from '../helpers/cli-process.js'
import { hasScript, quote } from '../helpers/pseudo-terminal.js'
import { untracked } from '../helpers/untracked.js'

// util-linux's script(1) runs the CLI on a pseudo-terminal, as a person's shell would.
t.test('on a terminal the logs are pretty lines, not JSON', { skip: hasScript() ? false : 'script(1) from util-linux is not installed' }, async t => {
  const command = `exec ${untracked(process.execPath, [CLI_UNDER_TEST, '--port', '0', '--token', 'secret-token']).flat().map(quote).join(' ')}`
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { ...process.env, NO_COLOR: '1' } })
  let output = ''
  let stopped = false
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk
    if (stopped || !output.includes('mock-nvr listening on http://127.0.0.1:')) return
    stopped = true
    // The CLI itself, script's only child: script passes on its exit code (a signal to script would make it
    // wait two seconds before it kills the CLI).
    process.kill(Number(execFileSync('ps', ['-o', 'pid=', '--ppid', String(child.pid)])), 'SIGTERM')
  })
  const [code] = await once(child, 'exit')
  t.equal(code, 0)
  t.match(output, /INFO: serving counting lines \{"source":/, 'one line for each entry, its fields on the same line')
  t.notMatch(output, /\{"level":/)
  t.notMatch(output, /secret-token/)
})
