import t from 'tap'
import { parseCli } from '../../src/cli/args.js'
import { CLI_OPTIONS, envName, shownDefault } from '../../src/cli/serve-flags.js'
import { runCommand } from '../helpers/cli-process.js'
import { UsageError } from '../../src/errors/errors.js'

const WHOLE = (range: string, value: string) => `must be a whole number from ${range}, not '${value}'`
const ORIGIN = 'must be an origin, scheme://host[:port] with nothing after it (like http://localhost:5173)'

/**
 * Every flag's bad values, and what follows the flag's name in the message; its twin gets the same after
 * the variable's name. A switch's value is what its twin is set to (the flag itself takes none).
 */
const BAD_VALUES: Record<string, Array<[value: string, problem: string]>> = {
  port: [['abc', WHOLE('0 to 65535', 'abc')], ['-1', WHOLE('0 to 65535', '-1')], ['70000', WHOLE('0 to 65535', '70000')], ['80.5', WHOLE('0 to 65535', '80.5')]],
  host: [
    ['http://localhost', "must be a host name or an IP address alone, without scheme, port or path (like 127.0.0.1, 0.0.0.0 or ::), not 'http://localhost'"],
    ['127.0.0.1:8080', "must be a host name or an IP address alone, without scheme, port or path (like 127.0.0.1, 0.0.0.0 or ::), not '127.0.0.1:8080'"]
  ],
  'tls-cert': [['cert.pem', 'needs --tls-key too: give both or neither']],
  'tls-key': [['key.pem', 'needs --tls-cert too: give both or neither']],
  'tls-self-signed': [['yes', "must be true, false, 1 or 0, not 'yes'"]],
  // A path that is not there is found when the fixtures load (exit 1, naming the file); only an empty one is a usage error.
  fixtures: [],
  token: [['has space', 'must be one word of visible ASCII characters (no spaces, no letters like ö or é)'], ['tökén', 'must be one word of visible ASCII characters (no spaces, no letters like ö or é)']],
  'scoped-token': [
    ['no-colon', "must be TOKEN:CAMERA_ID, with a ':' between the token and the camera id"],
    [':cam-1', "has an empty token before the ':'"],
    ['token:', "has an empty camera id after the ':'"],
    ['has space:cam-1', 'must be one word of visible ASCII characters (no spaces, no letters like ö or é)'],
    ['tökén:cam-1', 'must be one word of visible ASCII characters (no spaces, no letters like ö or é)']
  ],
  'rate-limit': [['0', WHOLE('1 to 1000000', '0')], ['1000001', WHOLE('1 to 1000000', '1000001')], ['fast', WHOLE('1 to 1000000', 'fast')]],
  'cors-origin': [
    ['http://localhost:5173/', `${ORIGIN}, not 'http://localhost:5173/'; did you mean 'http://localhost:5173'?`],
    ['localhost:5173', `${ORIGIN}, not 'localhost:5173'; did you mean 'http://localhost:5173'?`],
    ['https://app.example.test/login', `${ORIGIN}, not 'https://app.example.test/login'; did you mean 'https://app.example.test'?`],
    ['null', `${ORIGIN}, not 'null'`]
  ],
  'log-level': [['loud', "must be one of fatal, error, warn, info, debug, trace or silent, not 'loud'"], ['INFO', "must be one of fatal, error, warn, info, debug, trace or silent, not 'INFO'"]],
  'pretty-logs': [['on', "must be true, false, 1 or 0, not 'on'"]],
  seed: [['-1', WHOLE('0 to 4294967295', '-1')], ['4294967296', WHOLE('0 to 4294967295', '4294967296')], ['99999999999999999999', WHOLE('0 to 4294967295', '99999999999999999999')]],
  'max-header-size': [['10', WHOLE('8192 to 1048576', '10')], ['64k', WHOLE('8192 to 1048576', '64k')]],
  'headers-timeout': [['3600001', WHOLE('0 to 3600000', '3600001')], ['10s', WHOLE('0 to 3600000', '10s')]],
  'request-timeout': [['-5', WHOLE('0 to 3600000', '-5')]],
  'keep-alive-timeout': [['0', WHOLE('1 to 3600000', '0')]],
  'max-connections': [['1000001', WHOLE('0 to 1000000', '1000001')], ['many', WHOLE('0 to 1000000', 'many')]],
  watch: [['maybe', "must be true, false, 1 or 0, not 'maybe'"]],
  generate: [['0x5', "needs from 1 to 10000 cameras, not 0 (in '0x5')"], ['1001x1000', '1001x1000 makes 1001000 lines; at most 1000000 lines in all can be generated'], ['ten', "must be CAMERASxLINES, e.g. 100x20, not 'ten'"]],
  latency: [['800-100', 'must go from low to high, not from 800 to 100'], ['slow', "must be milliseconds like 200, or a range like 100-800, not 'slow'"], ['300001', "must be at most 300000 milliseconds, not '300001'"]],
  'allow-prefer': [['2', "must be true, false, 1 or 0, not '2'"]],
  'admin-token': [['has space', 'must be one word of visible ASCII characters (no spaces, no letters like ö or é)'], ['tökén', 'must be one word of visible ASCII characters (no spaces, no letters like ö or é)']],
  'journal-size': [['1000001', WHOLE('0 to 1000000', '1000001')], ['-1', WHOLE('0 to 1000000', '-1')]],
  devices: [['0', WHOLE('1 to 20000', '0')], ['many', WHOLE('1 to 20000', 'many')]],
  // A fleet file that is not there, or wrong, is found when it is read (exit 1, naming the file and JSON path).
  fleet: [],
  manifest: [['devices.json', 'applies to a fleet only: give --devices too']],
  'control-port': [['70000', WHOLE('0 to 65535', '70000')], ['8079', 'applies to a fleet only: give --devices too']],
  clock: [['fast', 'must be "real" or "manual", not \'fast\'']],
  drift: [['0', WHOLE('1 to 2147483647', '0')], ['soon', WHOLE('1 to 2147483647', 'soon')], ['99999999999', WHOLE('1 to 2147483647', '99999999999')]],
  // A schedule file that is not there, or wrong, is found when it is read (exit 1, naming the file and JSON path).
  schedule: [],
  'offline-fraction': [['-0.1', "must be a number from 0 to 1, not '-0.1'"], ['half', "must be a number from 0 to 1, like 0.25, not 'half'"], ['0.5', 'applies to a fleet only: give --devices too']],
  'flapping-fraction': [['1.5', "must be a number from 0 to 1, not '1.5'"], ['0.5', 'applies to a fleet only: give --devices too']],
  shard: [
    ['0/3', "must be K/N with K from 1 to N, not '0/3'"],
    ['4/3', "must be K/N with K from 1 to N, not '4/3'"],
    ['a/b', "must be K/N, the K-th of N slices of the fleet's devices, like 2/3, not 'a/b'"],
    ['1/0', "must be K/N with N at least 1, not '1/0'"],
    ['2', "must be K/N, the K-th of N slices of the fleet's devices, like 2/3, not '2'"],
    ['1/3', 'applies to a fleet only: give --devices too']
  ]
}

// Words of the code, not of the user: the option keys that differ from their flag, and TypeBox's phrases.
const FOREIGN_WORDS = [
  ...CLI_OPTIONS.filter(option => option.key !== option.flag).map(option => option.key),
  'option ', 'expected', 'union', 'undefined', 'Error'
]

function refusal (argv: string[], env: NodeJS.ProcessEnv): string {
  try {
    parseCli(argv, env)
  } catch (error) {
    if (error instanceof UsageError) return error.message
    throw error
  }
  return 'accepted'
}

t.test('the table has bad values for every flag', async t => {
  t.strictSame(Object.keys(BAD_VALUES).sort(), CLI_OPTIONS.map(option => option.flag).sort())
})

t.test('every bad value is refused naming the flag, or its twin, in the user\'s words', async t => {
  for (const option of CLI_OPTIONS) {
    const flag = `--${option.flag}`
    const variable = envName(option)
    for (const [value, problem] of BAD_VALUES[option.flag] as Array<[string, string]>) {
      const byFlag = refusal(option.kind === 'switch' ? [flag] : [flag, value], {})
      const byVariable = refusal([], { [variable]: value })
      if (option.kind !== 'switch') t.equal(byFlag, `${flag} ${problem}`, `${flag} ${value}`)
      t.equal(byVariable, `${variable} ${problem}`, `${variable}=${value}`)
      for (const message of [byFlag, byVariable]) {
        for (const word of FOREIGN_WORDS) t.notOk(message.includes(word), `no '${word}' in: ${message}`)
      }
    }
  }
})

t.test('an empty value is refused for every flag and every variable, with the default to fall back on', async t => {
  for (const option of CLI_OPTIONS) {
    const flag = `--${option.flag}`
    const variable = envName(option)
    if (option.kind === 'switch') {
      t.equal(refusal([`${flag}=`], {}), `${flag} takes no value: give ${flag} to turn it on, leave it out for off`)
    } else {
      t.equal(refusal([flag, ''], {}), `${flag} is empty: give it a value, or leave it out (default: ${shownDefault(option)})`)
    }
    t.equal(refusal([], { [variable]: '' }), `${variable} is set but empty: give it a value, or unset it (default: ${shownDefault(option)})`)
  }
})

t.test('a list variable never drops an entry to nothing', async t => {
  t.equal(refusal([], { MOCK_NVR_TOKENS: 'a,,b' }), 'MOCK_NVR_TOKENS has an empty entry (entry 2 of 3): separate values with single commas')
  t.equal(refusal([], { MOCK_NVR_TOKENS: 'a,b,' }), 'MOCK_NVR_TOKENS has an empty entry (entry 3 of 3): separate values with single commas')
  t.equal(refusal([], { MOCK_NVR_TOKENS: ' , ' }), 'MOCK_NVR_TOKENS holds only commas and spaces: give it a value, or unset it (default: none)')
  t.equal(refusal([], { MOCK_NVR_CORS_ORIGINS: 'http://a.test, ' }), 'MOCK_NVR_CORS_ORIGINS has an empty entry (entry 2 of 2): separate values with single commas')
  t.equal(refusal(['--token', 'a,b'], {}), '--token takes one value, without commas: give --token once for each')
  t.equal(refusal([], { MOCK_NVR_SCOPED_TOKENS: 'a:cam-1,,b:cam-2' }), 'MOCK_NVR_SCOPED_TOKENS has an empty entry (entry 2 of 3): separate values with single commas')
  t.equal(refusal([], { MOCK_NVR_SCOPED_TOKENS: 'a:cam-1, b' }), "MOCK_NVR_SCOPED_TOKENS must be TOKEN:CAMERA_ID, with a ':' between the token and the camera id (value 2 of 2)")
  t.equal(refusal(['--scoped-token', 'a:cam-1', '--scoped-token', 'b:'], {}), "--scoped-token has an empty camera id after the ':' (value 2 of 2)")
  t.equal(refusal(['--scoped-token', 'a:cam-1,b:cam-2'], {}), '--scoped-token takes one value, without commas: give --scoped-token once for each')
})

t.test('a scoped token sees the camera after its first colon; the same token repeated sees each', async t => {
  t.match(parseCli(['--scoped-token', 'a:cam:with:colons', '--scoped-token', 'a:cam-2', '--scoped-token', 'b:cam-1'], {}), {
    options: { scopedTokens: [{ token: 'a', cameras: ['cam:with:colons'] }, { token: 'a', cameras: ['cam-2'] }, { token: 'b', cameras: ['cam-1'] }] }
  })
  t.match(parseCli([], { MOCK_NVR_SCOPED_TOKENS: 'a:cam-1, b:cam 2' }), { options: { scopedTokens: [{ token: 'a', cameras: ['cam-1'] }, { token: 'b', cameras: ['cam 2'] }] } })
  t.match(parseCli(['--scoped-token', 'c:cam-3'], { MOCK_NVR_SCOPED_TOKENS: 'a:cam-1' }), { options: { scopedTokens: [{ token: 'c', cameras: ['cam-3'] }] } }, 'the flag beats its twin')
  t.match(parseCli(['--rate-limit', '20'], {}), { options: { rateLimit: 20 } })
  t.match(parseCli([], { MOCK_NVR_RATE_LIMIT: '5' }), { options: { rateLimit: 5 } })
  t.notOk('rateLimit' in (parseCli([], {}) as { options: object }).options, 'off by default')
})

t.test('a token is never echoed, whatever is wrong with it', async t => {
  for (const message of [
    refusal(['--token', 'secret value'], {}), refusal([], { MOCK_NVR_ADMIN_TOKEN: 'secret value' }), refusal(['--token', 'secret,value'], {}),
    refusal(['--scoped-token', 'secret value:cam-1'], {}), refusal(['--scoped-token', 'secret-no-colon'], {}), refusal([], { MOCK_NVR_SCOPED_TOKENS: 'secret:' }),
    refusal(['--scoped-token', 'secret:cam-1', '--admin-token', 'secret'], {}), refusal(['--scoped-token', 'secret:cam-1', '--token', 'secret'], {})
  ]) {
    t.notOk(message.includes('secret'), message)
  }
})

t.test('options that go together, or never do, are named as the user set them', async t => {
  t.equal(refusal(['--tls-self-signed', '--tls-cert', 'c.pem', '--tls-key', 'k.pem'], {}), '--tls-self-signed cannot be combined with --tls-cert: choose one')
  t.equal(refusal([], { MOCK_NVR_TLS_SELF_SIGNED: '1', MOCK_NVR_TLS_KEY: 'k.pem' }), 'MOCK_NVR_TLS_SELF_SIGNED cannot be combined with MOCK_NVR_TLS_KEY: choose one')
  t.equal(refusal(['--admin-token', 'same'], { MOCK_NVR_TOKENS: 'other,same' }), 'the same token cannot be both --admin-token and MOCK_NVR_TOKENS: the admin token must never open the device API')
  t.equal(refusal(['--admin-token', 'same', '--scoped-token', 'other:cam-1', '--scoped-token', 'same:cam-1'], {}), '--scoped-token is the admin token, which must never open the device API')
  t.equal(refusal(['--token', 'same'], { MOCK_NVR_SCOPED_TOKENS: 'same:cam-1' }), 'MOCK_NVR_SCOPED_TOKENS is also given as an all-camera token: a token either sees every camera or only its own')
  t.equal(refusal(['--cors-origin', '*', '--cors-origin', 'http://a.test'], {}), "--cors-origin takes '*' (any origin) alone, not with other origins")
})

t.test('good values still pass: an origin, any origin, an IPv6 host, a value that starts with a dash', async t => {
  t.match(parseCli(['--cors-origin', 'http://localhost:5173', '--cors-origin', 'capacitor://localhost'], {}), { options: { corsOrigins: ['http://localhost:5173', 'capacitor://localhost'] } })
  t.match(parseCli([], { MOCK_NVR_CORS_ORIGINS: '*' }), { options: { corsOrigins: ['*'] } })
  t.match(parseCli(['--host', '::1'], {}), { options: { host: '::1' } })
  t.match(parseCli(['--token', '-dash-token'], {}), { options: { tokens: ['-dash-token'] } })
})

t.test('the CLI prints a usage error on one line with the hint, and exits 2', async t => {
  const run = await runCommand(['--port', '-1'])
  t.equal(run.code, 2)
  t.equal(run.stderr, "mock-nvr: --port must be a whole number from 0 to 65535, not '-1'. Run mock-nvr --help for the flags.\n")
  const origin = await runCommand([], { MOCK_NVR_CORS_ORIGINS: 'http://localhost:5173/' })
  t.equal(origin.code, 2)
  t.equal(origin.stderr, `mock-nvr: MOCK_NVR_CORS_ORIGINS ${ORIGIN}, not 'http://localhost:5173/'; did you mean 'http://localhost:5173'? Run mock-nvr --help for the flags.\n`)
})

t.test('every bad flag and variable is reported in one run, one line each, the pointer to --help after the last', async t => {
  t.equal(refusal(['--port', 'abc', '--rate-limit', '0', '--latency', '800-100', '--log-level', 'loud'], { MOCK_NVR_SEED: '-1' }), [
    "--port must be a whole number from 0 to 65535, not 'abc'",
    '--latency must go from low to high, not from 800 to 100',
    // The values read, then the options checked in the order --help lists them.
    "--log-level must be one of fatal, error, warn, info, debug, trace or silent, not 'loud'",
    "MOCK_NVR_SEED must be a whole number from 0 to 4294967295, not '-1'",
    "--rate-limit must be a whole number from 1 to 1000000, not '0'"
  ].join('\n'))
  t.strictSame(await runCommand(['--port', 'abc', '--rate-limit', '0']), {
    code: 2,
    stdout: '',
    stderr: "mock-nvr: --port must be a whole number from 0 to 65535, not 'abc'.\nmock-nvr: --rate-limit must be a whole number from 1 to 1000000, not '0'. Run mock-nvr --help for the flags.\n"
  })
})

t.test('a control port that is a device\'s port too is a flag problem: exit 2, with every other problem of the run', async t => {
  const clash = '--control-port 41601 is the port of device nvr-002 too (--port 41600 with --devices 2 gives the devices ports 41600 to 41601): give the control address a port outside them, or leave --control-port out for port 41599'
  t.strictSame(await runCommand(['--devices', '2', '--port', '41600', '--control-port', '41601']), { code: 2, stdout: '', stderr: `mock-nvr: ${clash}. Run mock-nvr --help for the flags.\n` })
  t.strictSame(await runCommand(['--devices', '2', '--port', '41600', '--control-port', '41601', '--tls-cert', '/nonexistent', '--rate-limit', '0']), {
    code: 2,
    stdout: '',
    stderr: `mock-nvr: --rate-limit must be a whole number from 1 to 1000000, not '0'.\nmock-nvr: ${clash}. Run mock-nvr --help for the flags.\n`
  })
  t.equal(refusal(['--devices', '2', '--port', '41600', '--tls-cert', 'c.pem'], { MOCK_NVR_CONTROL_PORT: '41600' }), [
    '--tls-cert needs --tls-key too: give both or neither',
    'MOCK_NVR_CONTROL_PORT 41600 is the port of device nvr-001 too (--port 41600 with --devices 2 gives the devices ports 41600 to 41601): give the control address a port outside them, or leave MOCK_NVR_CONTROL_PORT out for port 41599'
  ].join('\n'))
  t.equal(refusal(['--devices', '4', '--port', '41600', '--shard', '1/2'], { MOCK_NVR_CONTROL_PORT: '41601' }), 'MOCK_NVR_CONTROL_PORT 41601 is the port of device nvr-002 too (--port 41600 with --devices 4 gives this shard\'s devices ports 41600 to 41601): give the control address a port outside them, or leave MOCK_NVR_CONTROL_PORT out for port 41599')
  t.equal(refusal(['--devices', '2', '--port', '1', '--control-port', '2'], {}), '--control-port 2 is the port of device nvr-002 too (--port 1 with --devices 2 gives the devices ports 1 to 2): give the control address a port outside them, or leave --control-port out for a free port')
  // Another shard's ports, ports outside the fleet, port 0 and a bad value of any of them: no clash to report.
  for (const argv of [['--shard', '2/2'], ['--control-port', '41599'], ['--port', '0'], ['--control-port', '0'], ['--port', '65535'], ['--shard', '1/9'], ['--shard', '1/9', '--rate-limit', '0']]) {
    const options = { '--devices': '4', '--port': '41600', '--control-port': '41601' } as Record<string, string>
    for (let index = 0; index < argv.length; index += 2) options[argv[index] as string] = argv[index + 1] as string
    let message = ''
    try {
      parseCli(Object.entries(options).flat(), {})
    } catch (error) {
      message = (error as Error).message
    }
    t.notMatch(message, 'is the port of device', argv.join(' '))
  }
})
