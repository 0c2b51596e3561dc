// Lints the OpenAPI document mock-nvr serves for its bundled fixtures with Spectral (spectral:oas, see
// .spectral.yaml) and Redocly (recommended, see redocly.yaml). Fails on any error; docs/browsers.md says why the
// warnings left are accepted. Neither linter reaches the network: usage data and update checks are off.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openApiDocument } from '../src/start/openapi-document.js'

const OFFLINE = {
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true'
}

const folder = mkdtempSync(join(tmpdir(), 'mock-nvr-openapi-'))
const file = join(folder, 'openapi.json')
writeFileSync(file, `${JSON.stringify(await openApiDocument(), null, 2)}\n`)

function run (linter: string, args: string[]): boolean {
  process.stdout.write(`\n$ ${linter} ${args.join(' ')}\n`)
  const { status } = spawnSync(join('node_modules', '.bin', linter), args, { stdio: 'inherit', env: { ...process.env, ...OFFLINE } })
  return status === 0
}

try {
  const spectral = run('spectral', ['lint', '--ruleset', '.spectral.yaml', '--fail-severity', 'error', file])
  const redocly = run('redocly', ['lint', '--config', 'redocly.yaml', '--format', 'stylish', file])
  process.exitCode = spectral && redocly ? 0 : 1
} finally {
  rmSync(folder, { recursive: true, force: true })
}
