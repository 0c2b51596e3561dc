import { join } from 'node:path'
import t from 'tap'
import { parseCli } from '../../src/cli/args.js'
import { OptionsError, startMockFleet, startMockNvr } from '../../src/index.js'
import { createNvrHandlers } from '../../src/msw/index.js'
import { readFleetFile } from '../../src/fleet/fleet-file.js'
import { connectionFrom } from '../../src/target-client/target-connection.js'
import { SAMPLE_DATA } from '../helpers/app.js'
import { ADMIN, ADMIN_TOKEN, buildControlled } from '../helpers/control.js'
import { UsageError, ScopedTokensError } from '../../src/errors/errors.js'

// A token is visible ASCII, 0x21 to 0x7E, wherever it is given: curl sends `tökén` as UTF-8 bytes, Node's fetch as
// Latin-1, so no two clients would send it alike. Every refusal names the flag, option or field, never the token.
const RULE = 'must be one word of visible ASCII characters (no spaces, no letters like ö or é)'
const TOKEN = 'tökén'
const UNSENDABLE = [TOKEN, 'has space', 'tab\tinside', 'del\u007f', 'emoji🙂']

function usageError (argv: string[], env: NodeJS.ProcessEnv = {}): string {
  try {
    parseCli(argv, env)
  } catch (error) {
    if (error instanceof UsageError) return error.message
    throw error
  }
  return 'accepted'
}

// What a start that should fail says; one that starts after all is closed at once, so the test can say so.
async function startError (start: () => Promise<{ close: () => Promise<void> }>): Promise<string> {
  try {
    await (await start()).close()
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`
  }
  return 'started'
}

t.test('the command line: --token, --scoped-token, --admin-token and their twins', async t => {
  for (const token of UNSENDABLE) {
    const cases: Array<[string, string[], NodeJS.ProcessEnv]> = [
      ['--token', ['--token', token], {}],
      ['MOCK_NVR_TOKENS', [], { MOCK_NVR_TOKENS: `fine,${token}` }],
      ['--scoped-token', ['--scoped-token', `${token}:cam-1`], {}],
      ['MOCK_NVR_SCOPED_TOKENS', [], { MOCK_NVR_SCOPED_TOKENS: `${token}:cam-1` }],
      ['--admin-token', ['--admin-token', token], {}],
      ['MOCK_NVR_ADMIN_TOKEN', [], { MOCK_NVR_ADMIN_TOKEN: token }]
    ]
    for (const [name, argv, env] of cases) {
      const message = usageError(argv, env)
      t.equal(message, `${name} ${RULE}`, `${name} ${JSON.stringify(token)}`)
      t.notOk(message.includes(token), 'the token is not echoed')
    }
  }
})

t.test('the library: startMockNvr, startMockFleet and the MSW handlers', async t => {
  const cases: Array<[string, () => Promise<{ close: () => Promise<void> }>]> = [
    [`OptionsError: option tokens[1] ${RULE}`, () => startMockNvr({ data: SAMPLE_DATA, tokens: ['fine', TOKEN] })],
    [`OptionsError: option scopedTokens[0].token ${RULE}`, () => startMockNvr({ data: SAMPLE_DATA, scopedTokens: [{ token: TOKEN, cameras: ['cam-1'] }] })],
    [`OptionsError: option adminToken ${RULE}`, () => startMockNvr({ data: SAMPLE_DATA, adminToken: TOKEN })],
    [`OptionsError: option tokens[0] ${RULE}`, () => startMockFleet({ data: SAMPLE_DATA, count: 1, tokens: [TOKEN] })],
    [`OptionsError: option adminToken ${RULE}`, () => startMockFleet({ data: SAMPLE_DATA, count: 1, adminToken: TOKEN })],
    [`OptionsError: option devices[0].tokens[0] ${RULE}`, () => startMockFleet({ data: SAMPLE_DATA, devices: [{ name: 'a', tokens: [TOKEN] }] })],
    [`OptionsError: option devices[0].scopedTokens[0].token ${RULE}`, () => startMockFleet({ data: SAMPLE_DATA, devices: [{ name: 'a', scopedTokens: [{ token: TOKEN, cameras: [] }] }] })]
  ]
  for (const [message, start] of cases) t.equal(await startError(start), message)
  t.throws(() => createNvrHandlers({ baseUrl: 'http://nvr.test', tokens: [TOKEN] }), new OptionsError(`option tokens[0] ${RULE}`))
  t.throws(() => createNvrHandlers({ baseUrl: 'http://nvr.test', scopedTokens: [{ token: TOKEN, cameras: [] }] }), new OptionsError(`option scopedTokens[0].token ${RULE}`))
})

t.test('a fleet file: tokens and scoped tokens, at the top and per device', async t => {
  const dir = t.testdir({
    'fleet.json': JSON.stringify({ tokens: [TOKEN], devices: [{ name: 'a', scopedTokens: [{ token: TOKEN, cameras: [] }] }, { name: 'b', tokens: ['fine', TOKEN] }] })
  })
  const file = join(dir, 'fleet.json')
  const error = await readFleetFile(file).then(() => undefined, (error: Error) => error)
  t.equal(error?.message, [
    'Invalid fleet file:',
    `  ${file}: /tokens/0: ${RULE}`,
    `  ${file}: /devices/0/scopedTokens/0/token: ${RULE}`,
    `  ${file}: /devices/1/tokens/1: ${RULE}`
  ].join('\n'))
  t.notOk(error?.message.includes(TOKEN))
})

t.test('the admin API\'s PUT /__admin/scoped-tokens, and the handle\'s setScopedTokens', async t => {
  const { app, control } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  const put = await app.inject({ method: 'PUT', url: '/__admin/scoped-tokens', headers: ADMIN, payload: [{ token: 'fine', cameras: [] }, { token: TOKEN, cameras: ['cam-1'] }] })
  t.equal(put.statusCode, 400)
  t.strictSame(put.json().result, { success: false, httpCode: 400, errorCode: 'INVALID_BODY', errorMessage: `The request body is invalid: /1/token: ${RULE}.`, problems: [{ path: '/1/token', message: RULE }] })
  t.notOk(put.body.includes(TOKEN))
  t.throws(() => control.setScopedTokens([{ token: TOKEN, cameras: [] }]), new ScopedTokensError([{ path: '/0/token', message: RULE }]))
})

t.test('verify and record refuse the device\'s token in the same words', async t => {
  t.throws(() => connectionFrom({ target: 'http://device.test', token: TOKEN, cameras: ['cam-1'] }), { name: 'TargetLinkError', message: `the token ${RULE}`, option: 'token' })
})

t.test('every visible ASCII character is taken, as a base64 or JWT token holds them', async t => {
  const token = '!"#$%&\'()*+,-./0123456789:;<=>?@AZ[\\]^_`az{|}~'
  const nvr = await startMockNvr({ data: SAMPLE_DATA, tokens: ['eyJhbGciOi.J9-_x+/='], scopedTokens: [{ token: 'A~z', cameras: ['cam-1'] }], adminToken: token.replaceAll(',', '') })
  t.teardown(() => nvr.close())
  t.equal((await fetch(`${nvr.url}/nvr/v1/cameras/cam-1/counting_lines`, { headers: { authorization: 'Bearer eyJhbGciOi.J9-_x+/=' } })).status, 200)
  t.equal((await fetch(`${nvr.url}/nvr/v1/cameras/cam-1/counting_lines`, { headers: { authorization: 'Bearer A~z' } })).status, 200)
  t.equal(usageError(['--token', 'x!~']), 'accepted')
})
