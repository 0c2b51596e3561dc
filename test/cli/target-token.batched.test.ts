import { join } from 'node:path'
import t from 'tap'
import { TARGET_COMMAND_VARIABLES } from '../../src/cli/target-token.js'
import { line } from '../helpers/app.js'
import { runCommand } from '../helpers/cli-process.js'
import { mockLikeTarget } from '../helpers/fake-target.js'

const TOKEN = 'file-token-93c'
const DATA = { cameras: [{ id: 'cam-1' }], counting_lines: [line()] }

t.test('the target\'s token from --token-file or MOCK_NVR_DEVICE_TOKEN: sent, never printed', async t => {
  const { url, requests } = await mockLikeTarget(t, DATA, TOKEN)
  const folder = t.testdir({ 'token.txt': `${TOKEN}\n`, 'crlf.txt': `${TOKEN}\r\n`, 'bare.txt': TOKEN })
  const base = ['verify', '--target', url, '--camera', 'cam-1']
  for (const file of ['token.txt', 'crlf.txt', 'bare.txt']) {
    const run = await runCommand([...base, '--token-file', join(folder, file)])
    t.equal(run.code, 0, `${file}: one trailing newline is not part of the token`)
    t.match(run.stdout, 'OK: no violations, no differences')
    t.equal(requests.at(0)?.headers.authorization, `Bearer ${TOKEN}`)
  }
  const fromVariable = await runCommand(base, { MOCK_NVR_DEVICE_TOKEN: TOKEN })
  t.equal(fromVariable.code, 0)
  t.notMatch(fromVariable.stdout + fromVariable.stderr, TOKEN)
  const recorded = await runCommand(['record', '--target', url, '--camera', 'cam-1', '--out', join(folder, 'out.json')], { MOCK_NVR_DEVICE_TOKEN: TOKEN })
  t.equal(recorded.code, 0, 'record reads it too')

  const flagWins = await runCommand([...base, '--token', 'not-it'], { MOCK_NVR_DEVICE_TOKEN: TOKEN })
  t.equal(flagWins.code, 1, 'a flag beats the variable: the wrong token given by the flag is refused by the target')
  t.match(flagWins.stdout, 'answered 401, not 200')
  const fileWins = await runCommand([...base, '--token-file', join(folder, 'token.txt')], { MOCK_NVR_DEVICE_TOKEN: 'not-it' })
  t.equal(fileWins.code, 0, '--token-file beats the variable too')
  t.strictSame(TARGET_COMMAND_VARIABLES, ['MOCK_NVR_DEVICE_TOKEN'])
})

t.test('a token source that cannot be used is a usage error naming it', async t => {
  const folder = t.testdir({ 'empty.txt': '', 'newline.txt': '\n', 'spaced.txt': 'two words\n' })
  const base = ['verify', '--target', 'http://127.0.0.1:1', '--camera', 'c']
  const refused = async (args: string[], env: Record<string, string>, message: string) => {
    const run = await runCommand([...base, ...args], env)
    t.strictSame(run, { code: 2, stdout: '', stderr: `mock-nvr: ${message}. Run mock-nvr verify --help for the flags.\n` }, message)
  }
  await refused(['--token', 'a', '--token-file', join(folder, 'empty.txt')], {}, 'give the token once: --token or --token-file, not both')
  await refused(['--token-file', join(folder, 'empty.txt')], {}, `--token-file ${join(folder, 'empty.txt')} is empty: put the target's token in it`)
  await refused(['--token-file', join(folder, 'newline.txt')], {}, `--token-file ${join(folder, 'newline.txt')} is empty: put the target's token in it`)
  await refused(['--token-file', join(folder, 'none.txt')], {}, `--token-file ${join(folder, 'none.txt')}: no such file or folder`)
  await refused(['--token-file', folder], {}, `--token-file ${folder}: cannot be read (EISDIR)`)
  await refused(['--token-file', join(folder, 'spaced.txt')], {}, `--token-file ${join(folder, 'spaced.txt')}: the token must be one word of visible ASCII characters (no spaces, no letters like ö or é)`)
  await refused(['--token-file='], {}, '--token-file is empty: give it a value')
  await refused([], { MOCK_NVR_DEVICE_TOKEN: '' }, 'MOCK_NVR_DEVICE_TOKEN is set but empty: give it the target\'s token, or unset it')
  await refused([], { MOCK_NVR_DEVICE_TOKEN: 'a b' }, 'MOCK_NVR_DEVICE_TOKEN: the token must be one word of visible ASCII characters (no spaces, no letters like ö or é)')
})

t.test('proxy holds no device token: --token-file and MOCK_NVR_DEVICE_TOKEN are refused', async t => {
  const flag = await runCommand(['proxy', '--target', 'http://127.0.0.1:1', '--token-file', 'token.txt'])
  t.strictSame(flag, { code: 2, stdout: '', stderr: 'mock-nvr: --token-file does not apply to proxy: each client\'s own Authorization is forwarded to the target. Run mock-nvr proxy --help for the flags.\n' })
  const variable = await runCommand(['proxy', '--target', 'http://127.0.0.1:1'], { MOCK_NVR_DEVICE_TOKEN: 'x' })
  t.strictSame(variable, { code: 2, stdout: '', stderr: 'mock-nvr: MOCK_NVR_DEVICE_TOKEN does not apply to proxy: each client\'s own Authorization is forwarded to the target; unset it. Run mock-nvr proxy --help for the flags.\n' })
})
