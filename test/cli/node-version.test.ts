import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import t from 'tap'
import { MINIMUM_NODE, oldNodeMessage, refuseOldNode } from '../../src/cli/node-version.js'
import { CLI, SOURCE_FLAGS } from '../helpers/cli-process.js'

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } }

t.test('package.json engines states the same minimum the CLI enforces', async t => {
  t.equal(packageJson.engines.node, `>=${MINIMUM_NODE.replace(/\.0$/, '')}`)
})

t.test('a Node.js older than the minimum gets one line naming both versions', async t => {
  for (const version of ['18.20.4', '20.0.0', '20.18.3']) {
    t.equal(oldNodeMessage(version), `mock-nvr needs Node.js ${MINIMUM_NODE} or newer; this is Node.js ${version}.`, version)
  }
  for (const version of ['20.19.0', '20.20.2', '22.0.0', '24.11.1', process.versions.node]) {
    t.equal(oldNodeMessage(version), undefined, version)
  }
})

t.test('refuseOldNode writes the line and exits 1 only on an old Node.js', async t => {
  const calls: Array<string | number> = []
  refuseOldNode('20.18.3', line => calls.push(line), code => calls.push(code))
  t.same(calls, [`mock-nvr needs Node.js ${MINIMUM_NODE} or newer; this is Node.js 20.18.3.\n`, 1])
  calls.length = 0
  refuseOldNode('20.19.0', line => calls.push(line), code => calls.push(code))
  t.same(calls, [])
})

// The CLI itself, with process.versions.node made to say 20.18.3 before it loads.
t.test('the CLI refuses an old Node.js before it does anything else', async t => {
  const fakeOldNode = 'data:text/javascript,Object.defineProperty(process.versions,\'node\',{value:\'20.18.3\'})'
  const child = spawn(process.execPath, [...SOURCE_FLAGS, `--import=${fakeOldNode}`, CLI, '--help'])
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', chunk => { stdout += chunk })
  child.stderr.setEncoding('utf8').on('data', chunk => { stderr += chunk })
  const [code] = await once(child, 'exit')
  t.equal(code, 1)
  t.equal(stderr, `mock-nvr needs Node.js ${MINIMUM_NODE} or newer; this is Node.js 20.18.3.\n`)
  t.equal(stdout, '')
})
