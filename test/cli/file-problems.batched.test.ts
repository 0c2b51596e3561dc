import { join } from 'node:path'
import t from 'tap'
import { runCommand } from '../helpers/cli-process.js'

const BAD_SCHEDULE = JSON.stringify({ health: 'sleepy' })
const BAD_FIXTURES = JSON.stringify({ cameras: 3 })
const SCHEDULE_PROBLEM = (file: string) => `mock-nvr: Invalid schedule:\n  ${file}: /health: must be a state ({ "state": "offline", … }), a list of steps ({ "at", "state", … }) or a pattern ({ "pattern": "flapping" | "reboot", … }), not "sleepy"\n`
const FIXTURES_PROBLEM = (file: string) => `mock-nvr: Invalid fixtures:\n  ${file}: /cameras: must be an array, not 3\n`

t.test('a bad flag and bad files are reported together, in one run, before anything listens', async t => {
  const dir = t.testdir({ 'schedule.json': BAD_SCHEDULE, 'site.json': BAD_FIXTURES })
  const [schedule, fixtures] = [join(dir, 'schedule.json'), join(dir, 'site.json')]
  const run = await runCommand(['--port', '99999', '--schedule', schedule], { MOCK_NVR_FIXTURES: fixtures })
  t.equal(run.code, 2, 'a usage error among them: exit 2')
  t.equal(run.stdout, '')
  t.equal(run.stderr, "mock-nvr: --port must be a whole number from 0 to 65535, not '99999'. Run mock-nvr --help for the flags.\n" +
    FIXTURES_PROBLEM(fixtures) + SCHEDULE_PROBLEM(schedule))
})

t.test('good flags with two bad files: the start reports both files, not the first alone', async t => {
  const dir = t.testdir({ 'schedule.json': BAD_SCHEDULE, 'site.json': BAD_FIXTURES })
  const [schedule, fixtures] = [join(dir, 'schedule.json'), join(dir, 'site.json')]
  const run = await runCommand(['--port', '0', '--schedule', schedule, '--fixtures', fixtures])
  t.equal(run.code, 1)
  t.equal(run.stderr, FIXTURES_PROBLEM(fixtures) + SCHEDULE_PROBLEM(schedule))
})

t.test('a fleet file\'s fixtures are read whole before the fleet starts: every bad one is named', async t => {
  const dir = t.testdir({
    'one.json': BAD_FIXTURES,
    'two.json': JSON.stringify({ cameras: [], counting_lines: 'none' }),
    'fleet.json': JSON.stringify({ devices: [{ name: 'a', fixtures: 'one.json' }, { name: 'b', fixtures: 'two.json' }, { name: 'c' }] })
  })
  const run = await runCommand(['--fleet', join(dir, 'fleet.json'), '--port', '0'])
  t.equal(run.code, 1)
  t.match(run.stderr, FIXTURES_PROBLEM(join(dir, 'one.json')))
  t.match(run.stderr, `${join(dir, 'two.json')}: /counting_lines`)
  t.equal(run.stdout, '', 'nothing listened: no control line')
})

t.test('a fleet file that cannot be used is reported with the flags\' problems', async t => {
  const dir = t.testdir({ 'fleet.json': JSON.stringify({ devices: [] }) })
  const run = await runCommand(['--fleet', join(dir, 'fleet.json'), '--seed', 'x'])
  t.equal(run.code, 2)
  t.match(run.stderr, /^mock-nvr: --seed must be a whole number[^\n]*\nmock-nvr: Invalid fleet file:\n {2}[^\n]*fleet\.json: \/devices: /)
})

t.test('a start that fails for no file of its own reports that alone', async t => {
  const run = await runCommand(['--port', '0', '--tls-cert', '/nonexistent/cert.pem', '--tls-key', '/nonexistent/key.pem'])
  t.equal(run.code, 1)
  t.notMatch(run.stderr, 'Invalid')
})
