import { readFile } from 'node:fs/promises'
import t from 'tap'
import { GARBAGE_COLLECTOR_FLAGS, tuneGarbageCollector } from '../../src/cli/garbage-collector.js'
import { CLI_UNDER_TEST } from '../helpers/cli-process.js'

t.test('the CLI sets the three V8 heuristics a loaded mock pays for', async t => {
  const set: string[] = []
  tuneGarbageCollector(flag => set.push(flag))
  t.same(set, ['--no-allocation-site-pretenuring', '--no-incremental-marking-task', '--heap-growing-percent=50'])
  t.same([...GARBAGE_COLLECTOR_FLAGS], set)
})

t.test('the bundled CLI sets them before it reads its command line, so before any device exists', async t => {
  const bundle = await readFile(CLI_UNDER_TEST, 'utf8')
  const tuned = bundle.indexOf('tuneGarbageCollector()')
  t.ok(tuned > 0, 'the flags are set at load')
  t.ok(tuned < bundle.indexOf('await runCommandLine('), 'before the command line runs')
})
