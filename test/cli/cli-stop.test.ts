import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { connect } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { hasScript, quote } from '../helpers/pseudo-terminal.js'
import { untracked } from '../helpers/untracked.js'
import { until, within } from '../helpers/bounded.js'
import { CLI, CLI_UNDER_TEST, printed, runCli, SOURCE_FLAGS } from '../helpers/cli-process.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** The process and all its descendants, from ps. */
function tree (pid: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=']).toString().trim().split('\n').map(row => row.trim().split(/\s+/).map(Number))
  const found = [pid]
  for (let i = 0; i < found.length; i++) for (const [child, parent] of rows) if (parent === found[i]) found.push(child as number)
  return found
}

const alive = (pid: number) => { try { process.kill(pid, 0); return true } catch { return false } }

/** Resolves once none of the processes is left; fails naming those left, should they outlive the bound. */
async function allGone (pids: number[]): Promise<void> {
  await until(`processes ${pids.join(', ')} gone`, () => !pids.some(alive))
}

/** Resolves with the connection's outcome: 'refused' once nothing listens. */
async function portState (url: string): Promise<string> {
  const { port } = new URL(url)
  const socket = connect(Number(port), '127.0.0.1')
  try {
    await once(socket, 'connect')
    return 'open'
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'error'
  } finally {
    socket.destroy()
  }
}

function waitReady (child: ReturnType<typeof spawn>): Promise<string> {
  let output = ''
  return new Promise((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk
      const match = /mock-nvr listening on (\S+?)\r?\n/.exec(output)
      if (match !== null) resolve(match[1] as string)
    })
    child.once('exit', code => reject(new Error(`exited with ${String(code)} before ready: ${output}`)))
  })
}

// The start script from package.json, in a project of its own whose dist/cli.js runs the CLI under test.
t.test('SIGTERM or SIGINT to npm start stops the server: the port closes and no process is left', async t => {
  const { scripts } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }
  const project = await mkdtemp(join(ROOT, '.start-test-'))
  t.teardown(() => rm(project, { recursive: true, force: true }))
  await mkdir(join(project, 'dist'))
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'start-test', type: 'module', private: true, scripts: { start: scripts.start } }))
  await writeFile(join(project, 'dist', 'cli.js'), `await import(${JSON.stringify(CLI_UNDER_TEST)})\n`)
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    const npm = spawn(...untracked('npm', ['start', '--', '--port', '0', '--log-level', 'silent']), {
      cwd: project,
      env: { ...process.env, FORCE_COLOR: '0' }
    })
    const url = await within('npm start\'s ready line', waitReady(npm))
    const pids = tree(npm.pid as number)
    npm.kill(signal)
    await within(`npm start's exit on ${signal}`, once(npm, 'exit'))
    await allGone(pids)
    t.equal(await portState(url), 'ECONNREFUSED', `${signal}: the port is closed`)
  }
})

t.test('a second signal while closing exits 1 at once', async t => {
  const run = runCli(['--port', '0', '--log-level', 'debug', '--latency', '5000'], {}, 'from source')
  const url = await within('the ready line', run.ready)
  // A slow request in flight holds the close open: signalled once the server has it and is waiting.
  const slow = fetch(`${url}/nvr/v1/cameras/cam-security-exit/counting_lines`, { headers: { authorization: 'Bearer x' } }).catch(() => undefined)
  await within('the log line "answer delayed"', printed(run, 'answer delayed'))
  run.child.kill('SIGTERM')
  run.child.kill('SIGINT')
  t.equal(await within('the exit on a second signal', run.exit), 1)
  await slow
})

// An SSH drop or a closed tab: the terminal's script(1) is killed, the CLI gets SIGHUP and its terminal is gone.
// Its stderr goes to a file, to see how it ended: Node 20 aborts when a normal exit cannot reset the gone terminal.
t.test('a terminal that goes away stops the CLI, without a crash', { skip: hasScript() ? false : 'script(1) from util-linux is not installed' }, async t => {
  const folder = await mkdtemp(join(ROOT, '.pty-test-'))
  t.teardown(() => rm(folder, { recursive: true, force: true }))
  const [pidFile, stderrFile] = [join(folder, 'pid'), join(folder, 'stderr')]
  const cliCommand = untracked(process.execPath, [CLI_UNDER_TEST, '--port', '0']).flat().map(quote).join(' ')
  const command = `echo $$ > ${quote(pidFile)}; exec ${cliCommand} 2> ${quote(stderrFile)}`
  const terminal = spawn('script', ['-qfec', command, '/dev/null'], { env: { ...process.env, NO_COLOR: '1' } })
  const url = await within('the ready line in the terminal', waitReady(terminal))
  const cli = Number(await readFile(pidFile, 'utf8'))
  t.ok(alive(cli))
  terminal.kill('SIGKILL')
  await allGone([cli])
  t.equal(await portState(url), 'ECONNREFUSED')
  t.notMatch(await readFile(stderrFile, 'utf8'), /Assertion failed|Native stack trace|Segmentation fault/, 'Node did not abort while exiting')
})

// npx runs the bin through `sh -c`, which does not pass npm's signal on: the CLI notices its parent is gone.
t.test('SIGTERM to npx mock-nvr stops the server: the port closes and no process is left', async t => {
  const project = await mkdtemp(join(ROOT, '.npx-test-'))
  t.teardown(() => rm(project, { recursive: true, force: true }))
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'npx-test', private: true }))
  await mkdir(join(project, 'node_modules', '.bin'), { recursive: true })
  const bin = join(project, 'node_modules', '.bin', 'mock-nvr')
  // npx runs outside the runner's coverage; the CLI under it, from source, gets the runner's NODE_OPTIONS back:
  // its parent watch runs only in a process under npm or npx.
  const nodeOptions = `NODE_OPTIONS=${quote(process.env.NODE_OPTIONS ?? '')}`
  await writeFile(bin, `#!/bin/sh\nexec env ${nodeOptions} ${[process.execPath, ...SOURCE_FLAGS, CLI].map(quote).join(' ')} "$@"\n`, { mode: 0o755 })
  const npx = spawn(...untracked('npx', ['--no-install', 'mock-nvr', '--port', '0', '--log-level', 'warn']), { cwd: project, env: { ...process.env, FORCE_COLOR: '0' } })
  const url = await within('npx mock-nvr\'s ready line', waitReady(npx))
  const pids = tree(npx.pid as number)
  t.ok(pids.length > 1, 'npx runs the CLI as a child process')
  npx.kill('SIGTERM')
  await allGone(pids)
  t.equal(await portState(url), 'ECONNREFUSED')
})

t.test('outside npm, the bin stops on SIGTERM as the process the user started, and does not watch its parent', async t => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'npm_command')) as Record<string, string>
  const run = spawn(...untracked(process.execPath, [CLI_UNDER_TEST, '--port', '0', '--log-level', 'warn']), { env })
  const url = await within('the ready line', waitReady(run))
  run.kill('SIGTERM')
  t.equal((await within('the exit on SIGTERM', once(run, 'exit')))[0], 0)
  t.equal(await portState(url), 'ECONNREFUSED')
})
