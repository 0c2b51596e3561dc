import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { untracked } from '../helpers/untracked.js'

// npm test runs tap through test/helpers/own-temp.js: the run has a temp folder of its own, which the leak guard
// inspects and removes. Here a folder of the test's stands for the system's temp folder, and a short Node script
// for tap: it writes where another program would, in the system's folder, and where a test would, in its own.
const OWN_TEMP = fileURLToPath(new URL('../helpers/own-temp.js', import.meta.url))

interface Run { code: number | null, stderr: string }

async function runInOwnTemp (system: string, script: string): Promise<Run> {
  const [command, args] = untracked(process.execPath, [OWN_TEMP, process.execPath, '-e', script])
  const child = spawn(command, args, { env: { ...process.env, TMPDIR: system, TMP: system, TEMP: system, SYSTEM_TEMP: system }, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', chunk => { stderr += chunk })
  const [code] = await once(child, 'exit') as [number | null]
  return { code, stderr }
}

// What the stand-in for tap writes: where the run's temp folder is, then the entries the test asks for.
const writing = (...entries: string[]) => `
  const { mkdirSync } = require('node:fs')
  const { join } = require('node:path')
  const { tmpdir } = require('node:os')
  console.error('run temp: ' + tmpdir())
  ${entries.join('\n')}
`
const foreign = 'mkdirSync(join(process.env.SYSTEM_TEMP, "mock-nvr-foreign"))'
const leak = 'mkdirSync(join(tmpdir(), "mock-nvr-leak"))'
const otherTool = 'mkdirSync(join(tmpdir(), "tsx-0"))'

const runTemp = (run: Run) => /^run temp: (.*)$/m.exec(run.stderr)?.[1] as string

t.test('a mock-nvr entry another program makes in the system\'s temp folder during the run is not blamed', async t => {
  const system = t.testdir()
  const run = await runInOwnTemp(system, writing(foreign, otherTool))
  t.equal(run.code, 0)
  t.notMatch(run.stderr, 'left')
  t.not(runTemp(run), system, 'the run had a folder of its own')
  t.equal(join(runTemp(run), '..'), system, 'in the temp folder it was given')
  t.notOk(existsSync(runTemp(run)), 'removed when the run ends, with what other tools left there')
  t.strictSame(readdirSync(system), ['mock-nvr-foreign'], 'the other program\'s entry is left alone')
})

t.test('a mock-nvr entry left in the run\'s own temp folder fails the run, named', async t => {
  const system = t.testdir()
  const run = await runInOwnTemp(system, writing(foreign, leak))
  t.equal(run.code, 1)
  t.match(run.stderr, `The tests left 1 temp entry behind:\n  ${join(runTemp(run), 'mock-nvr-leak')}\n`)
  t.notMatch(run.stderr, 'mock-nvr-foreign')
  t.notOk(existsSync(runTemp(run)), 'removed all the same')
  t.strictSame(readdirSync(system), ['mock-nvr-foreign'])
})

t.test('the run ends with the exit code of what it ran', async t => {
  const system = t.testdir()
  const run = await runInOwnTemp(system, `${writing()}\nprocess.exitCode = 3`)
  t.equal(run.code, 3)
  t.strictSame(readdirSync(system), [])
})
