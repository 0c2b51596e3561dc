import { spawn } from 'node:child_process'
import { once } from 'node:events'
import t from 'tap'
import { MINIMUM_NODE } from '../../src/util/node-version.js'
import { CLI, SOURCE_FLAGS } from '../helpers/cli-process.js'

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
