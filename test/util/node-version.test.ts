import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import semver from 'semver'
import t from 'tap'
import { MINIMUM_NODE, oldNodeMessage, refuseOldNode, requireNode } from '../../src/util/node-version.js'
import { SOURCE_FLAGS } from '../helpers/cli-process.js'

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string }, overrides?: unknown }
const refusal = (version: string) => `mock-nvr needs Node.js ${MINIMUM_NODE} or newer; this is Node.js ${version}.`

t.test('package.json engines states the same minimum the CLI and the library enforce', async t => {
  t.equal(packageJson.engines.node, `>=${MINIMUM_NODE.replace(/\.0$/, '')}`)
})

t.test('a Node.js older than the minimum gets one line naming both versions', async t => {
  for (const version of ['18.20.4', '20.0.0', '20.18.3']) t.equal(oldNodeMessage(version), refusal(version), version)
  for (const version of ['20.19.0', '20.20.2', '22.0.0', '24.11.1', process.versions.node]) {
    t.equal(oldNodeMessage(version), undefined, version)
  }
  // A part left out counts as 0, as in 20.19 = 20.19.0; never as "nothing to compare", which would let 20 pass.
  for (const version of ['20', '20.18']) t.equal(oldNodeMessage(version), refusal(version), version)
  for (const version of ['21', '20.19']) t.equal(oldNodeMessage(version), undefined, version)
})

t.test('refuseOldNode writes the line and exits 1 only on an old Node.js', async t => {
  const calls: Array<string | number> = []
  refuseOldNode('20.18.3', line => calls.push(line), code => calls.push(code))
  t.same(calls, [`${refusal('20.18.3')}\n`, 1])
  calls.length = 0
  refuseOldNode('20.19.0', line => calls.push(line), code => calls.push(code))
  t.same(calls, [])
})

t.test('requireNode throws the line only on an old Node.js', async t => {
  t.throws(() => requireNode('20.18.3'), new Error(refusal('20.18.3')))
  t.doesNotThrow(() => requireNode('20.19.0'))
})

// The package's entry, with process.versions.node made to say 20.18.3 before it loads: one clear error, not a
// dependency's ERR_REQUIRE_ESM.
t.test('importing mock-nvr on an old Node.js throws the line', async t => {
  const fakeOldNode = 'data:text/javascript,Object.defineProperty(process.versions,\'node\',{value:\'20.18.3\'})'
  const entry = new URL('../../src/index.ts', import.meta.url).href
  const script = `import(${JSON.stringify(entry)}).then(() => console.log('loaded'), error => console.log(error.message))`
  const child = spawn(process.execPath, [...SOURCE_FLAGS, `--import=${fakeOldNode}`, '--input-type=module', '-e', script])
  let stdout = ''
  child.stdout.setEncoding('utf8').on('data', chunk => { stdout += chunk })
  await once(child, 'exit')
  t.equal(stdout, `${refusal('20.18.3')}\n`)
})

t.test('every runtime dependency in the lock file runs on the minimum Node.js, so installing prints no EBADENGINE', async t => {
  const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
    packages: Record<string, { dev?: boolean, engines?: { node?: string } }>
  }
  t.equal(packageJson.overrides, undefined, 'overrides do not reach a project that installs mock-nvr: the lock must hold without them')
  const runtime = Object.entries(lock.packages).filter(([path, entry]) => path !== '' && entry.dev !== true)
  t.ok(runtime.length > 50, 'the lock file lists the runtime dependencies')
  const tooNew = runtime
    .filter(([, entry]) => entry.engines?.node !== undefined && !semver.satisfies(MINIMUM_NODE, entry.engines.node))
    .map(([path, entry]) => `${path.replace(/^.*node_modules\//, '')} wants Node ${entry.engines?.node as string}`)
  t.strictSame(tooNew, [])
})
