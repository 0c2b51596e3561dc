import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { httpsGet } from './tls-helper.js'

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url))

function startCli (args: string[]) {
  return spawn(process.execPath, [...process.execArgv, CLI, '--log-level', 'silent', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
}

async function runCli (args: string[]): Promise<{ code: number | null, stderr: string }> {
  const child = startCli(args)
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
  const [code] = await once(child, 'close') as [number | null]
  return { code, stderr }
}

t.test('with --tls-self-signed the ready line says https and SIGTERM still stops it cleanly', async t => {
  const child = startCli(['--port', '0', '--tls-self-signed'])
  const [readyLine] = await once(createInterface({ input: child.stdout }), 'line') as [string]
  t.match(readyLine, /^mock-nvr listening on https:\/\/127\.0\.0\.1:\d+$/)
  const url = readyLine.slice(readyLine.indexOf('https://'))
  // The CLI does not hand out its generated certificate, so this client skips verification, as curl -k does.
  const answer = await httpsGet(`${url}/healthz`, undefined, {}, false)
  t.equal(answer.statusCode, 200)
  child.kill('SIGTERM')
  const [code] = await once(child, 'close') as [number | null]
  t.equal(code, 0)
})

t.test('a missing certificate file stops the start with exit code 1 and names the file', async t => {
  const missing = join(t.testdirName, 'missing.pem')
  t.strictSame(await runCli(['--port', '0', '--tls-cert', missing, '--tls-key', missing]), {
    code: 1,
    stderr: `mock-nvr: cannot start: TLS certificate file ${missing}: no such file or folder\n`
  })
})
