import t from 'tap'
import { whenParentGone } from '../../src/cli/stop-gracefully.js'

t.test('the parent watch keeps quiet while the parent is there, and calls once when it has gone', async t => {
  const parents = [100, 100, 1]
  const seen: number[] = []
  // The watch does not keep a process alive, by design: this test does, until the watch has called.
  const keepAlive = setInterval(() => {}, 60_000)
  t.teardown(() => clearInterval(keepAlive))
  await new Promise<void>(resolve => whenParentGone(100, 1, resolve, () => {
    const parent = parents[seen.length] ?? 1
    seen.push(parent)
    return parent
  }))
  t.strictSame(seen, [100, 100, 1], 'checked until the parent changed, then not again')
})
