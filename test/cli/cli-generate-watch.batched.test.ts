import t from 'tap'
import { parseCli } from '../../src/cli/args.js'
import { generateFixtureData } from '../../src/data/generate.js'
import { printed, runCli } from '../helpers/cli-process.js'
import { AUTH } from '../helpers/app.js'
import { UsageError } from '../../src/errors/errors.js'

t.test('--generate serves deterministic data through the CLI and names the ids it made', async t => {
  const cli = runCli(['--port', '0', '--generate', '4x3', '--seed', '42'])
  t.teardown(() => { cli.child.kill() })
  const url = await cli.ready
  await printed(cli, '"msg":"generated cameras cam-1 … cam-4, each with lines line-1 … line-3 (seed 42)"')

  const response = await fetch(`${url}/nvr/v1/cameras/cam-4/counting_lines`, { headers: AUTH })
  t.equal(response.status, 200)
  const expected = generateFixtureData({ cameras: 4, linesPerCamera: 3, seed: 42 }).counting_lines?.slice(9)
  t.strictSame(((await response.json()) as { content: unknown }).content, expected, 'the same data as generateFixtureData with that seed')

  cli.child.kill('SIGTERM')
  t.equal(await cli.exit, 0)
})

t.test('--generate and --watch are read from flags and their environment twins', async t => {
  t.match(parseCli(['--generate', '100x20'], {}), { options: { generate: { cameras: 100, linesPerCamera: 20 } } })
  t.match(parseCli([], { MOCK_NVR_GENERATE: '2x3' }), { options: { generate: { cameras: 2, linesPerCamera: 3 } } })
  t.match(parseCli(['--generate', '5x5'], { MOCK_NVR_GENERATE: '2x3' }), { options: { generate: { cameras: 5 } } })
  t.match(parseCli(['--watch'], {}), { options: { watch: true } })
  t.match(parseCli([], { MOCK_NVR_WATCH: '1' }), { options: { watch: true } })
  t.match(parseCli([], { MOCK_NVR_WATCH: 'false' }), { options: { watch: false } })
  t.match(parseCli([], { MOCK_NVR_GENERATE: '2x3', MOCK_NVR_WATCH: '0' }), { options: { watch: false, generate: { cameras: 2 } } })
})

// cli.ts turns every UsageError into exit code 2; these check the message it prints.
t.test('bad or conflicting values name the flag or variable that was set', async t => {
  const usageError = (argv: string[], env: NodeJS.ProcessEnv, message: string) =>
    t.throws(() => parseCli(argv, env), new UsageError(message), message)
  usageError(['--generate', '10xabc'], {}, "--generate must be CAMERASxLINES, e.g. 100x20, not '10xabc'")
  usageError([], { MOCK_NVR_GENERATE: '1001x1000' }, 'MOCK_NVR_GENERATE 1001x1000 makes 1001000 lines; at most 1000000 lines in all can be generated')
  usageError([], { MOCK_NVR_WATCH: 'maybe' }, "MOCK_NVR_WATCH must be true, false, 1 or 0, not 'maybe'")
  usageError(['--generate', '2x2', '--fixtures', 'fixtures'], {}, '--generate cannot be combined with --fixtures: generated data is served instead of fixture files')
  usageError(['--fixtures', 'fixtures'], { MOCK_NVR_GENERATE: '2x2' }, 'MOCK_NVR_GENERATE cannot be combined with --fixtures: generated data is served instead of fixture files')
  usageError(['--generate', '2x2', '--watch'], {}, '--watch cannot be combined with --generate: only fixture files can be watched')
  usageError([], { MOCK_NVR_GENERATE: '2x2', MOCK_NVR_WATCH: 'true' }, 'MOCK_NVR_WATCH cannot be combined with MOCK_NVR_GENERATE: only fixture files can be watched')
})
