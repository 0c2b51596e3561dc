import t from 'tap'
import { parseTargetArgs } from '../../src/cli/target-args.js'
import { parseMilliseconds } from '../../src/cli/milliseconds.js'
import { MAX_TIMER_MS } from '../../src/util/delay.js'
import { parseProxyArgs } from '../../src/cli/proxy-args.js'
import { UsageError } from '../../src/errors/errors.js'

const tooLong = (flag: string, text: string) => new UsageError(`--${flag} must be at most 2147483647 milliseconds (almost 25 days), not '${text}'`)

t.test('a time in milliseconds is a whole number from 1 to the longest a timer waits', async t => {
  t.equal(parseMilliseconds('timeout', '1'), 1)
  t.equal(parseMilliseconds('timeout', String(MAX_TIMER_MS)), MAX_TIMER_MS)
  for (const text of ['0', '-1', '1.5', '10s', '']) {
    t.throws(() => parseMilliseconds('timeout', text), new UsageError(`--timeout must be a whole number of milliseconds, at least 1, not '${text}'`), text)
  }
  // Longer, a timer would fire after 1 ms: every request would time out at once.
  for (const text of ['2147483648', '99999999999999999999']) t.throws(() => parseMilliseconds('timeout', text), tooLong('timeout', text), text)
})

t.test('verify, record and proxy take their times through it', async t => {
  const connection = ['--target', 'http://x', '--token', 't', '--camera', 'c']
  t.throws(() => parseTargetArgs('verify', [...connection, '--timeout', '2147483648']), tooLong('timeout', '2147483648'))
  t.throws(() => parseTargetArgs('record', [...connection, '--out', 'f.json', '--run-timeout', '2147483648']), tooLong('run-timeout', '2147483648'))
  t.match(parseTargetArgs('verify', [...connection, '--timeout', '20', '--run-timeout', '30']), { timeout: 20, runTimeout: 30 })
  await t.rejects(parseProxyArgs(['--target', 'http://x', '--timeout', '99999999999999999999']), tooLong('timeout', '99999999999999999999'))
})
